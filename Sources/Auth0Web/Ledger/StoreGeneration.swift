import Locking
import OpenSSLCrypto
import Web

/// A random mark kept beside the ledger's log: gone or changed, the store came back without the
/// log this worker read (Redis restarted without persistence, a new instance, a deleted SQLite
/// file), and what it remembers must be written again. The first worker to add a mark wins.
final class StoreGeneration: Sendable {
    static let key = "generation"
    /// Kept as long as any store keeps a key; it is written again whenever it is found missing.
    static let seconds: Double = 10 * 365 * 86_400

    private let store: any SharedStore
    /// The generation this worker last read everything of (nil before the first check).
    private let known = Lock<[UInt8]?>(nil)

    init(store: any SharedStore) { self.store = store }

    /// What a check of the store's mark found.
    enum Found {
        /// The mark this worker adopted.
        case unchanged
        /// The first mark this worker sees: nothing was lost.
        case first([UInt8])
        /// Another mark, or a new one: the log this worker read is gone.
        case changed([UInt8])
    }

    /// The store's mark against the one this worker adopted.
    func check() throws(SharedStoreError) -> Found {
        let known = known.withLock { $0 }
        let current = try current()
        if known == current { return .unchanged }
        return known == nil ? .first(current) : .changed(current)
    }

    /// Takes `mark` as the generation read whole (only once what was lost is written back).
    func adopt(_ mark: [UInt8]) { known.withLock { $0 = mark } }

    /// The store's mark, made now if it has none.
    private func current() throws(SharedStoreError) -> [UInt8] {
        if let mark = try store.get(Self.key) { return mark }
        let fresh = Array(Base64URL.encode(SecureRandom.bytes(12)).utf8)
        if try store.add(Self.key, fresh, ttl: Self.seconds) { return fresh }
        return try store.get(Self.key) ?? fresh
    }
}
