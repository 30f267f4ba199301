import Web

/// What the ledger remembers of ended sessions, as one worker's in-memory copy: a page view
/// asks it, never the shared store. Each entry is kept until no cookie it could match is valid
/// any more (the session's absolute lifetime), then pruned.
package struct EndedSessions {
    /// A fact about ended sessions, as written to the shared store's event log.
    package enum Entry: Equatable {
        /// One login of this product ended (its logout): keyed by that login's CSRF token, which
        /// is random per login and useless once the login has ended.
        case login(String, until: Int64)
        /// The tenant session `sid` ended (back-channel logout): every login within it.
        case tenantSession(String, until: Int64)
        /// Every session of the person `sub` that began at or before `before` ended.
        case person(String, before: Int64, until: Int64)
        /// One login ended from another of the person's sessions ("Your sessions"), keyed by its
        /// public id (`Session.publicID`), since only the session itself knows its CSRF token.
        case session(String, until: Int64)
        /// Every session of `sub` begun at or before `before` but the one whose public id is
        /// `keep` ("Log out everywhere else").
        case personExcept(String, before: Int64, keep: String, until: Int64)

        var until: Int64 {
            switch self {
            case .login(_, let until), .tenantSession(_, let until), .person(_, _, let until),
                .session(_, let until), .personExcept(_, _, _, let until):
                until
            }
        }
    }

    // Keyed by a 64-bit keyed fingerprint of the id (SipHash with this process's random seed),
    // not the id itself: a page view hashes each id once instead of three times through a
    // dictionary of Strings, and no copy of the ids is kept. Nobody outside the process knows
    // the key, so nobody can choose an id (a `sub`, a `sid`) whose fingerprint matches another
    // person's; a chance match (about 2^-64 per pair) would end a session early, never keep one.
    private var logins: [UInt64: Int64] = [:]
    private var tenantSessions: [UInt64: Int64] = [:]
    private var people: [UInt64: (before: Int64, until: Int64)] = [:]
    // Ended from "Your sessions": a page view makes its public id only when one of these could
    // name it (any single session ended, or an end of this person's other sessions).
    private var sessions: [UInt64: Int64] = [:]
    private var peopleExcept: [UInt64: EndsExcept] = [:]

    /// How many ends are remembered: one per login, tenant session, person and ended session,
    /// and one per person and kept session for "Log out everywhere else" (the newest of each wins).
    var count: Int {
        logins.count + tenantSessions.count + people.count + sessions.count
            + peopleExcept.values.reduce(0) { $0 + $1.count }
    }

    /// True when nothing is remembered (a page view then skips the lookup).
    var isEmpty: Bool {
        logins.isEmpty && tenantSessions.isEmpty && people.isEmpty && sessions.isEmpty && peopleExcept.isEmpty
    }

    /// Remembers `entry` (again: entries are idempotent).
    mutating func apply(_ entry: Entry) {
        switch entry {
        case .login(let key, let until):
            let id = Self.fingerprint(key)
            logins[id] = max(until, logins[id] ?? 0)
        case .tenantSession(let sid, let until):
            let id = Self.fingerprint(sid)
            tenantSessions[id] = max(until, tenantSessions[id] ?? 0)
        case .person(let sub, let before, let until):
            let id = Self.fingerprint(sub)
            let known = people[id]
            people[id] = (max(before, known?.before ?? .min), max(until, known?.until ?? 0))
        case .session(let publicID, let until):
            let id = Self.fingerprint(publicID)
            sessions[id] = max(until, sessions[id] ?? 0)
        case .personExcept(let sub, let before, let keep, let until):
            peopleExcept[Self.fingerprint(sub), default: EndsExcept()].add(
                keep: Self.fingerprint(keep), before: before, until: until)
        }
    }

    /// True when `session` ended.
    func contains(_ session: Session) -> Bool {
        var publicIDs = PublicIDMemo()
        return contains(session, publicIDs: &publicIDs)
    }

    /// True when `session` ended; its public id's fingerprint, if one is needed, taken from
    /// `publicIDs` or made and kept there (page views': `SessionLedger` keeps the memo).
    func contains(_ session: Session, publicIDs: inout PublicIDMemo) -> Bool {
        if !logins.isEmpty, logins[Self.fingerprint(session.csrfToken)] != nil { return true }
        if !tenantSessions.isEmpty, let sid = session.tenantSessionID, tenantSessions[Self.fingerprint(sid)] != nil {
            return true
        }
        if !people.isEmpty, let ended = people[Self.fingerprint(session.profile.sub)],
            session.createdAt <= ended.before
        {
            return true
        }
        if !sessions.isEmpty || !peopleExcept.isEmpty { return endedFromAnotherSession(session, &publicIDs) }
        return false
    }

    /// The latest moment (seconds) up to which an end of every session of `sub` reaches, or nil.
    func latestEnd(of sub: String) -> Int64? {
        let id = Self.fingerprint(sub)
        return [people[id]?.before, peopleExcept[id]?.latest].compactMap { $0 }.max()
    }

    /// True when another session of the person ended this one ("Your sessions").
    private func endedFromAnotherSession(_ session: Session, _ publicIDs: inout PublicIDMemo) -> Bool {
        let ends = peopleExcept[Self.fingerprint(session.profile.sub)]
        // The public id is a SHA-256 (some 7,000 instructions): needed only when an end could name
        // this session, not for everyone's page views once someone somewhere has pressed "Log out
        // everywhere else"; and then made once per login (`PublicIDMemo`).
        guard !sessions.isEmpty || ends != nil else { return false }
        let own = publicIDs.fingerprint(of: session)
        if sessions[own] != nil { return true }
        guard let ends else { return false }
        return ends.ends(createdAt: session.createdAt, kept: own)
    }

    /// The standard library's SipHash over the UTF-8 bytes, seeded at random per process.
    static func fingerprint(_ text: String) -> UInt64 { ByteSlices.fingerprint(text) }

    /// Forgets what no valid cookie can match any more.
    mutating func prune(now: Int64) {
        logins = logins.filter { $0.value > now }
        tenantSessions = tenantSessions.filter { $0.value > now }
        people = people.filter { $0.value.until > now }
        sessions = sessions.filter { $0.value > now }
        peopleExcept = peopleExcept.compactMapValues { ends in
            var live = ends
            live.prune(now: now)
            return live.isEmpty ? nil : live
        }
    }
}

/// One person's "Log out everywhere else" ends: per kept session, the newest (a person pressing
/// it a thousand times from one session holds one), and the two newest of different kept
/// sessions, so that applying an end and asking about a session are each a few comparisons,
/// never a walk over that person's ends under the lock page views take.
struct EndsExcept {
    private var byKeep: [UInt64: (before: Int64, until: Int64)] = [:]
    // The end with the latest `before`, and the latest among the other kept sessions': a session
    // ended by some other session's end is ended by the latest end that does not keep it.
    private var newest: (keep: UInt64, before: Int64)?
    private var runnerUp: (keep: UInt64, before: Int64)?

    var count: Int { byKeep.count }
    var isEmpty: Bool { byKeep.isEmpty }
    var latest: Int64? { newest?.before }

    /// Takes an end (again: ends are idempotent, and only ever move later).
    mutating func add(keep: UInt64, before: Int64, until: Int64) {
        let known = byKeep[keep]
        let latest = max(before, known?.before ?? .min)
        byKeep[keep] = (latest, max(until, known?.until ?? 0))
        rank(keep: keep, before: latest)
    }

    /// True when an end kept another session than `kept` and came at or after `createdAt`.
    func ends(createdAt: Int64, kept: UInt64) -> Bool {
        guard let other = newest?.keep == kept ? runnerUp : newest else { return false }
        return createdAt <= other.before
    }

    /// Forgets the ends no valid cookie can match any more (once a minute: a walk is fine here).
    mutating func prune(now: Int64) {
        byKeep = byKeep.filter { $0.value.until > now }
        newest = nil
        runnerUp = nil
        for (keep, end) in byKeep { rank(keep: keep, before: end.before) }
    }

    private mutating func rank(keep: UInt64, before: Int64) {
        guard let top = newest, top.keep != keep else {
            newest = (keep, before)
            return
        }
        if before > top.before {
            runnerUp = top
            newest = (keep, before)
        } else if let second = runnerUp, second.keep != keep, second.before >= before {
            return
        } else {
            runnerUp = (keep, before)
        }
    }
}

extension EndedSessions.Entry {
    private static let formatVersion: UInt8 = 1

    /// The entry as bytes for the shared store's log.
    package var encoded: [UInt8] {
        var w = ByteWriter(capacity: 96)
        w.write(EndedSessions.Entry.formatVersion)
        switch self {
        case .login(let key, let until):
            w.write(UInt8(1))
            w.write(key)
            w.write(until)
        case .tenantSession(let sid, let until):
            w.write(UInt8(2))
            w.write(sid)
            w.write(until)
        case .person(let sub, let before, let until):
            w.write(UInt8(3))
            w.write(sub)
            w.write(before)
            w.write(until)
        case .session(let publicID, let until):
            w.write(UInt8(4))
            w.write(publicID)
            w.write(until)
        case .personExcept(let sub, let before, let keep, let until):
            w.write(UInt8(5))
            w.write(sub)
            w.write(before)
            w.write(keep)
            w.write(until)
        }
        return w.bytes
    }

    /// Reads what `encoded` wrote; nil for anything else (an event of a newer version is skipped).
    package init?(encoded bytes: [UInt8]) {
        var r = ByteReader(bytes[...])
        do {
            guard try r.readByte() == EndedSessions.Entry.formatVersion else { return nil }
            switch try r.readByte() {
            case 1: self = .login(try r.readString(), until: try r.readInt64())
            case 2: self = .tenantSession(try r.readString(), until: try r.readInt64())
            case 3: self = .person(try r.readString(), before: try r.readInt64(), until: try r.readInt64())
            case 4: self = .session(try r.readString(), until: try r.readInt64())
            case 5:
                self = .personExcept(
                    try r.readString(), before: try r.readInt64(), keep: try r.readString(), until: try r.readInt64())
            default: return nil
            }
            guard r.isAtEnd else { return nil }
        } catch {
            return nil
        }
    }
}

/// The fingerprints of sessions' public ids (`EndedSessions.fingerprint(publicID)`), by login:
/// keyed by eight bytes of the CSRF token, with the whole token compared behind the key so two
/// logins never share one. Forgotten whole past `limit` entries (some hundred bytes each).
struct PublicIDMemo {
    private var known: [UInt64: (csrfToken: String, fingerprint: UInt64)] = [:]
    private static let limit = 4096

    /// `session`'s, made once per login while it is remembered.
    mutating func fingerprint(of session: Session) -> UInt64 {
        let key = Session.loginKey(csrfToken: session.csrfToken)
        if let kept = known[key], kept.csrfToken == session.csrfToken { return kept.fingerprint }
        let fingerprint = EndedSessions.fingerprint(session.publicID)
        if known.count >= Self.limit { known.removeAll(keepingCapacity: true) }
        known[key] = (session.csrfToken, fingerprint)
        return fingerprint
    }
}
