/// The ended sessions a worker remembers, in the form they take in the store's log, so it can
/// write them again when the store comes back without them. Kept apart from `EndedSessions`
/// (which holds only fingerprints, for page views) and pruned with it.
struct RememberedEntries {
    private var entries: [[UInt8]: Int64] = [:]

    /// Keeps `entry` until it expires (again: entries are idempotent).
    mutating func remember(_ entry: EndedSessions.Entry) {
        let encoded = entry.encoded
        entries[encoded] = max(entry.until, entries[encoded] ?? 0)
    }

    /// The entries still in force at `now`, encoded, with when each expires.
    func live(now: Int64) -> [(encoded: [UInt8], until: Int64)] {
        entries.filter { $0.value > now }.map { ($0.key, $0.value) }
    }

    /// Forgets what no valid cookie can match any more.
    mutating func prune(now: Int64) { entries = entries.filter { $0.value > now } }
}
