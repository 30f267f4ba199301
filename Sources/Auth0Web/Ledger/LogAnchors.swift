/// The events of the store's log this worker read that tell whether the log went back (a store
/// restored from an older copy): the newest one still in force, and behind it, each older one
/// that outlives every newer one. Checking only the newest event read gave up once it expired,
/// although older logouts it had read were still in force (a restore then went unnoticed); the
/// newest event *still in force* is always here. An event that outlives none of the newer ones is
/// never needed (while it is in force, a newer one is too), so the row stays short: its
/// expiries fall from the oldest to the newest.
struct LogAnchors {
    struct Anchor: Equatable {
        /// Where the log held it.
        let cursor: String
        let event: [UInt8]
        /// When it stops being in force (seconds since 1970).
        let until: Int64
    }

    /// Oldest first; each outlives every newer one.
    private var anchors: [Anchor] = []

    /// Notes `event`, read at `cursor`, in force until `until`.
    mutating func read(_ event: [UInt8], at cursor: String, until: Int64) {
        while let newest = anchors.last, newest.until <= until { anchors.removeLast() }
        anchors.append(Anchor(cursor: cursor, event: event, until: until))
    }

    /// The newest event read that is still in force at `now`; nil when none is (then nothing the
    /// log lost could matter).
    mutating func newestInForce(now: Int64) -> Anchor? {
        while let newest = anchors.last, newest.until <= now { anchors.removeLast() }
        return anchors.last
    }

    /// Forgets every event (the log was read again from its start).
    mutating func removeAll() { anchors.removeAll() }
}
