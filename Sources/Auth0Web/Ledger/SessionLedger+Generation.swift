import OpenSSLCrypto
import Web

/// A store that comes back empty (Redis restarted without persistence, a new instance, a
/// failover to a replica that had not caught up, a deleted SQLite file) has lost every logout
/// written to it: the running workers still refuse those sessions from memory, but a worker
/// started afterwards would not. So the store holds a random generation mark beside the log;
/// a worker that finds the mark gone or changed reads the whole log again and writes back every
/// ended session it remembers that the log no longer holds. A logout is lost only if every
/// worker that knew of it is gone before the store returns.
extension SessionLedger {
    static let generationKey = "generation"
    /// Kept as long as any store keeps a key; it is written again whenever it is found missing.
    static let generationSeconds: Double = 10 * 365 * 86_400

    /// Compares the store's generation with the one this worker read; on a change, reads the log
    /// from its start and writes back what it lost. Failures are reported and tried again on
    /// the next turn of the follower (the generation is adopted only once the writing is done).
    func checkGeneration() {
        do {
            let known = generation.withLock { $0 }
            let current = try currentGeneration()
            guard known != current else { return }
            if known != nil {
                let written = try rewriteLostEntries()
                events.ledgerStoreReset(rewritten: written)
            }
            generation.withLock { $0 = current }
        } catch {
            failed("generation", error)
        }
    }

    /// The store's generation mark, made now if it has none (the first worker to add it wins).
    private func currentGeneration() throws(SharedStoreError) -> [UInt8] {
        if let mark = try store.get(Self.generationKey) { return mark }
        let fresh = Array(Base64URL.encode(SecureRandom.bytes(12)).utf8)
        if try store.add(Self.generationKey, fresh, ttl: Self.generationSeconds) { return fresh }
        return try store.get(Self.generationKey) ?? fresh
    }

    /// Reads the whole log (the cursor may point past a log that started again), then appends
    /// the remembered entries it does not hold; returns how many were written.
    private func rewriteLostEntries() throws(SharedStoreError) -> Int {
        var inLog = Set<[UInt8]>()
        var next: String?
        while true {
            let (read, after) = try store.events(after: next, wait: 0)
            next = after
            inLog.formUnion(read)
            apply(read.compactMap(EndedSessions.Entry.init(encoded:)))
            if read.count < type(of: store).pageSize { break }
        }
        cursor.withLock { $0 = next }
        let lost = remembered.withLock { $0.live(now: now()) }.filter { !inLog.contains($0.encoded) }
        for entry in lost { try store.append(entry.encoded, keepUntil: Double(entry.until)) }
        return lost.count
    }
}
