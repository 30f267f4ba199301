/// The ended sessions a worker remembers, in the form they take in the store's log, so it can
/// write them again when the store comes back without them. Kept apart from `EndedSessions`
/// (which holds only fingerprints, for page views) and pruned with it. One entry per thing
/// ended, the latest winning: a person pressing "Log out everywhere else" a thousand times from
/// one session is one entry here, the last one.
struct RememberedEntries {
    private var entries: [EndedSessions.Entry.Subject: EndedSessions.Entry] = [:]

    /// Keeps `entry` until it expires, unless a later one for the same thing is known.
    mutating func remember(_ entry: EndedSessions.Entry) {
        let subject = entry.subject
        if let known = entries[subject], !entry.isLater(than: known) { return }
        entries[subject] = entry
    }

    /// The entries still in force at `now`, encoded, with when each expires.
    func live(now: Int64) -> [(encoded: [UInt8], until: Int64)] {
        entries.values.filter { $0.until > now }.map { ($0.encoded, $0.until) }
    }

    /// Forgets what no valid cookie can match any more.
    mutating func prune(now: Int64) { entries = entries.filter { $0.value.until > now } }
}

extension EndedSessions.Entry {
    /// What an entry ends, without its times: a later entry about the same subject stands for
    /// an earlier one.
    struct Subject: Hashable {
        let kind: UInt8
        let id: String
        let keep: String
    }

    var subject: Subject {
        switch self {
        case .login(let key, _): Subject(kind: 1, id: key, keep: "")
        case .tenantSession(let sid, _): Subject(kind: 2, id: sid, keep: "")
        case .person(let sub, _, _): Subject(kind: 3, id: sub, keep: "")
        case .session(let publicID, _): Subject(kind: 4, id: publicID, keep: "")
        case .personExcept(let sub, _, let keep, _): Subject(kind: 5, id: sub, keep: keep)
        }
    }

    /// When the sessions it ends began at the latest (nil: it names them, not a time).
    var before: Int64? {
        switch self {
        case .person(_, let before, _), .personExcept(_, let before, _, _): before
        case .login, .tenantSession, .session: nil
        }
    }

    /// True when this entry ends more, or for longer, than `other` about the same subject.
    func isLater(than other: Self) -> Bool {
        ((before ?? 0), until) > ((other.before ?? 0), other.until)
    }
}
