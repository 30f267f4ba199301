import Locking

/// The worker's open connections, each under a token the poller reports it by. A token names
/// one connection for good: once that connection is gone, its token finds nothing, even when its
/// slot holds a newer one (a thread may still hold an event for a connection another closed).
final class ConnectionTable: Sendable {
    private struct Slots {
        var entries: [FastCGIConnection?]
        var generations: [UInt32]
        var free: [Int]
        var count = 0
    }

    private let slots: Lock<Slots>
    /// The most connections held at once.
    let capacity: Int

    /// An empty table of `capacity` connections.
    init(capacity: Int) {
        self.capacity = capacity
        slots = Lock(
            Slots(
                entries: Array(repeating: nil, count: capacity), generations: Array(repeating: 0, count: capacity),
                free: Array((0..<capacity).reversed())))
    }

    /// Tokens below this are the poller's own (the listening socket, the stop signal).
    static let firstToken: UInt64 = 16

    /// Adds a connection and gives it its token; nil when the table is full.
    func insert(_ connection: FastCGIConnection) -> UInt64? {
        slots.withLock { slots in
            guard let slot = slots.free.popLast() else { return nil }
            slots.generations[slot] &+= 1
            slots.entries[slot] = connection
            slots.count += 1
            let token = UInt64(slots.generations[slot]) << 32 | UInt64(slot) + Self.firstToken
            connection.token = token
            return token
        }
    }

    /// The connection a token names, if it is still open.
    func connection(for token: UInt64) -> FastCGIConnection? {
        slots.withLock { slots in
            let slot = Int(token & 0xFFFF_FFFF) - Int(Self.firstToken)
            guard slot >= 0, slot < slots.entries.count, UInt64(slots.generations[slot]) == token >> 32 else {
                return nil
            }
            return slots.entries[slot]
        }
    }

    /// Forgets a connection (it is closed or about to be).
    func remove(_ token: UInt64) {
        slots.withLock { slots in
            let slot = Int(token & 0xFFFF_FFFF) - Int(Self.firstToken)
            guard slot >= 0, slot < slots.entries.count, UInt64(slots.generations[slot]) == token >> 32,
                slots.entries[slot] != nil
            else { return }
            slots.entries[slot] = nil
            slots.generations[slot] &+= 1  // the token finds nothing from now on
            slots.free.append(slot)
            slots.count -= 1
        }
    }

    /// How many connections are open.
    var count: Int { slots.withLock { $0.count } }

    /// The open connections, at this moment.
    func snapshot() -> [FastCGIConnection] {
        slots.withLock { slots in slots.entries.compactMap { $0 } }
    }
}
