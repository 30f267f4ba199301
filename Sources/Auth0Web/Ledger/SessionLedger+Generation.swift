import Web

/// A store can lose logouts written to it: it comes back empty (Redis restarted without
/// persistence, a new instance, a deleted SQLite file), or it comes back from an older copy
/// (Redis restarted from its last RDB snapshot, a Sentinel failover to a replica that lagged, a
/// SQLite file restored from a backup, which also numbers new events again from its own last
/// one). The running workers still refuse those sessions from memory, but a worker started
/// afterwards would not. So a worker notices, and writes back every ended session it remembers
/// that the log no longer holds:
/// - a random generation mark beside the log (`StoreGeneration`): gone or changed, the log is new;
/// - the newest event this worker read that is still in force (`LogAnchors`): no longer in the
///   log at its place (or another there), the log went back. Checked with each page read (before the cursor moves past a log that
///   went back and on) and twice a second;
/// - after the store was unreachable (a restart, a failover), the whole log is compared with
///   what this worker remembers, since its newest event may have come through while others'
///   did not.
/// A logout is lost only if every worker that knew of it is gone before the store returns.
extension SessionLedger {
    /// Compares the store's generation with the one this worker read, and the log's event at
    /// this worker's cursor with the one it read there; on a change, reads the log from its start
    /// and writes back what it lost. Failures are reported and tried again on the next turn of
    /// the follower (the generation is adopted only once the writing is done).
    func checkGeneration() {
        do {
            switch try generation.check() {
            case .first(let mark):
                generation.adopt(mark)
            case .changed(let mark):
                events.ledgerStoreReset(rewritten: try rewriteLostEntries())
                generation.adopt(mark)
            case .unchanged:
                if try logWentBack() { events.ledgerStoreReset(rewritten: try rewriteLostEntries()) }
            }
        } catch {
            failed("generation", error)
        }
    }

    /// After the store was away: the whole log against what this worker remembers, writing back
    /// what is missing (reported as a loss only when something was).
    func checkWholeLog() throws(SharedStoreError) {
        let written = try rewriteLostEntries()
        if written > 0 { events.ledgerStoreReset(rewritten: written) }
    }

    /// True when the log no longer holds, at its place, the newest event this worker read that
    /// is still in force (one that has expired may have been trimmed: that says nothing; an
    /// older one still in force says what the newest no longer can).
    func logWentBack() throws(SharedStoreError) -> Bool {
        let now = now()
        guard let anchor = follow.withLock({ $0.anchors.newestInForce(now: now) }) else { return false }
        return try store.event(at: anchor.cursor) != anchor.event
    }

    /// Notes the last event of a page read from the log, at `cursor`.
    func noteRead(_ event: [UInt8], at cursor: String) {
        let until = EndedSessions.Entry(encoded: event)?.until
        follow.withLock { follow in
            follow.lastRead = (cursor, event)
            if let until { follow.anchors.read(event, at: cursor, until: until) }
        }
    }

    /// Reads the whole log (the cursor may point past a log that started again or went back),
    /// then appends the remembered entries it does not hold; returns how many were written.
    func rewriteLostEntries() throws(SharedStoreError) -> Int {
        var inLog = Set<[UInt8]>()
        var next: String?
        follow.withLock { follow in
            follow.logEntriesByExpiry = [:]  // counted again, from the log's start
            follow.anchors.removeAll()
            follow.lastRead = nil
        }
        while true {
            let (read, after) = try store.events(after: next, wait: 0)
            next = after
            inLog.formUnion(read)
            if let event = read.last, let after { noteRead(event, at: after) }
            applyFromLog(read)
            if read.count < type(of: store).pageSize { break }
        }
        follow.withLock { $0.cursor = next }
        let now = now()
        let lost = memory.withLock { $0.remembered.live(now: now) }.filter { !inLog.contains($0.encoded) }
        for entry in lost { try store.append(entry.encoded, keepUntil: Double(entry.until)) }
        return lost.count
    }
}
