import FoundationEssentials
import Locking
import Synchronization
import Web

/// What a sealed cookie cannot carry, over one `SharedStore` (SQLite on one machine, Redis
/// across machines): the ended sessions, here, and beside them one small type per other job
/// (`renewals`: which worker renews a refresh token now; `logoutTokens`: which logout tokens were
/// used; `revalidations`: which worker checks a session now; `generation`: whether the store
/// lost its log). Each worker keeps an in-memory copy of the ended sessions, follows the store's
/// log on a thread of its own, and answers page views from the copy. When the store cannot be reached, the copy keeps serving, what this
/// worker ended is kept and written when the store returns, and every failure is reported. When
/// the store comes back without its log (see `SessionLedger+Generation.swift`), every worker
/// writes again what it remembers, so a worker started later still refuses those sessions.
public final class SessionLedger: Sendable {
    /// How long a session may live (its absolute lifetime): ended entries are kept that long.
    public let retentionSeconds: Int64
    let store: any SharedStore
    /// One renewal per refresh token across every worker, over the same store.
    let renewals: RenewalLock
    /// Each logout token taken once across every worker.
    public let logoutTokens: LogoutTokenReplay
    /// One revalidation per session per interval across every worker.
    public let revalidations: RevalidationClaims
    /// The provider sessions logins were made in, which a front-channel logout may end.
    public let providerSessions: ProviderSessions
    /// The mark that says whether the store lost its log.
    let generation: StoreGeneration
    let clock: Clock
    let events: any Auth0Events
    /// What this worker knows has ended, and the same as written to the store: one lock over both.
    let memory = Lock(Memory())
    /// Mirrors `memory.ended.isEmpty`, so a page view on a fresh deployment takes no lock.
    private let hasEntries = Atomic<Bool>(false)
    /// Where this worker is in the store's log, and what it could not write yet: one lock over all.
    let follow = Lock(Follow())
    /// Whether the store answered last time, and the outage report when it does not.
    private let health: StoreHealth
    private let following = Atomic<Bool>(false)

    /// The ended sessions in this worker's memory.
    struct Memory {
        var ended = EndedSessions()
        /// The public ids page views needed lately (only while a "Your sessions" end lives).
        var publicIDs = PublicIDMemo()
        /// What `ended` holds, as written to the store, for writing again to a store that lost it.
        var remembered = RememberedEntries()
    }

    /// The follower's place in the store's log.
    struct Follow {
        var cursor: String?
        /// The newest event read from the log and its cursor.
        var lastRead: (cursor: String, event: [UInt8])?
        /// The events read that must still be in the log at their places while in force: if one
        /// is not, the log went back.
        var anchors = LogAnchors()
        /// How many entries of the store's log this worker has read that are still in force, and
        /// their bytes, by the minute they expire (pruning drops whole minutes): the size of the log
        /// a worker reads at start, which the entries and bytes gauges report.
        var logEntriesByExpiry: [Int64: (entries: Int, bytes: Int)] = [:]
        /// Ends this worker could not write to the store yet.
        var pending: [EndedSessions.Entry] = []
    }

    /// The newest event read from the log and its cursor.
    var lastRead: (cursor: String, event: [UInt8])? { follow.withLock { $0.lastRead } }

    /// A ledger over `store`, keeping ended sessions for `retentionSeconds`, sealing renewal
    /// results with a key derived from `secrets` (`AUTH0_SECRET`), reporting to `events`.
    public init(
        store: any SharedStore, retentionSeconds: Int64, secrets: [String], clock: Clock = .system,
        events: any Auth0Events
    ) throws {
        self.store = store
        self.retentionSeconds = retentionSeconds
        self.clock = clock
        self.events = events
        let health = StoreHealth(events: events)
        self.health = health
        renewals = try RenewalLock(
            store: store, secrets: secrets, clock: clock, rotationMemorySeconds: Double(retentionSeconds)
        ) { health.failed($0, $1) }
        logoutTokens = LogoutTokenReplay(store: store, clock: clock, retentionSeconds: retentionSeconds) {
            health.failed($0, $1)
        }
        revalidations = RevalidationClaims(store: store, clock: clock) { health.failed($0, $1) }
        providerSessions = ProviderSessions(store: store, retentionSeconds: retentionSeconds) { health.failed($0, $1) }
        generation = StoreGeneration(store: store)
    }

    // MARK: Page views

    /// True when `session` was ended (by a logout anywhere, a back-channel logout, or the
    /// tenant revoking the person's sessions). An in-memory lookup.
    public func hasEnded(_ session: Session?) -> Bool {
        guard let session, hasEntries.load(ordering: .acquiring) else { return false }
        return memory.withLock { $0.ended.contains(session, publicIDs: &$0.publicIDs) }
    }

    // MARK: Ending sessions

    /// Ends this login of the product (its logout), on every worker.
    public func endLogin(_ session: Session) {
        record(.login(session.csrfToken, until: session.createdAt + retentionSeconds))
    }

    /// Ends every login within the tenant session `sid` (a back-channel logout).
    public func endTenantSession(_ sid: String) {
        record(.tenantSession(sid, until: now() + retentionSeconds))
    }

    /// Ends one of a person's logins by its public id, from another of their sessions.
    public func endSession(publicID: String, startedAt: Int64) {
        record(.session(publicID, until: startedAt + retentionSeconds))
    }

    /// How often one session may end the others: each time is an entry in the store's log, kept
    /// for the sessions' lifetime and read by every worker at start, so a script pressing it in
    /// a loop must not grow the log at the pace of its posts.
    public static let endOthersSeconds: Double = 60

    /// Ends every session of `sub` begun by now but `keep` ("Log out everywhere else"), unless
    /// `keep` did so less than `endOthersSeconds` ago (then false: nothing is recorded). With
    /// the store away, the end is recorded (this worker refuses them at once, the store later).
    public func endSessions(of sub: String, except keep: Session) -> Bool {
        do {
            guard try store.add("end-others:" + keep.publicID, [1], ttl: Self.endOthersSeconds) else { return false }
        } catch {
            failed("add", error)
        }
        let now = now()
        // After every login this worker has seen of the person, those stamped a second on included.
        let before = max(now, (latestEnd(of: sub) ?? .min) + 1)
        record(.personExcept(sub, before: before, keep: keep.publicID, until: before + retentionSeconds))
        return true
    }

    /// Ends every session of `sub` that began at or before `before` (seconds since 1970).
    public func endSessions(of sub: String, issuedBefore before: Int64) {
        // An end in the same second as the last one known also reaches the logins stamped after that one.
        let before = before == latestEnd(of: sub) ? before + 1 : before
        record(.person(sub, before: before, until: before + retentionSeconds))
    }

    /// When a login of `sub` completing at `now` began, in the order the ledger keeps: after every
    /// end of the person's sessions known here. Ends are kept to the second, and one that ends
    /// the sessions begun "at or before" this second would end a login that completed after it
    /// (the person, sent to log in again, would be sent round and round until the second passed):
    /// such a login is stamped a second after the end.
    public func loginTime(of sub: String, now: Int64) -> Int64 {
        guard let last = latestEnd(of: sub), last >= now else { return now }
        return last + 1
    }

    private func latestEnd(of sub: String) -> Int64? {
        guard hasEntries.load(ordering: .acquiring) else { return nil }
        return memory.withLock { $0.ended.latestEnd(of: sub) }
    }

    private func record(_ entry: EndedSessions.Entry) {
        apply([entry])  // this worker refuses it at once, whatever the store does
        do {
            try store.append(entry.encoded, keepUntil: Double(entry.until))
        } catch {
            follow.withLock { $0.pending.append(entry) }
            failed("append", error)
        }
    }

    // MARK: Following the store

    /// Reads every ended session the store holds, a page at a time (so a restarted worker refuses
    /// what it did before, and a log of millions never sits whole in memory), then follows the
    /// store's log on a thread of its own. A store that cannot be reached now is reported and
    /// read when it returns. The worker says it is ready only after this: serving before would
    /// open every copied cookie of a session ended in the part not yet read. Applying an entry
    /// costs the same however many came before (200,000 read in 0.12 s: `session-bench
    /// ledger-start`), so this wait grows with the log, never with its square.
    public func startFollowing() {
        guard !following.exchange(true, ordering: .acquiringAndReleasing) else { return }
        while catchUp(wait: 0) {}
        if health.isHealthy { checkGeneration() }
        Threads.start("session-ledger") { [self] in
            var lastPrune = clock.now()
            var lastGenerationCheck = ContinuousClock.now
            while true {
                catchUp(wait: 0.5)
                // Twice a second at most (a GET), and never while the store is away.
                if health.isHealthy, ContinuousClock.now - lastGenerationCheck >= .milliseconds(500) {
                    lastGenerationCheck = ContinuousClock.now
                    checkGeneration()
                }
                if !health.isHealthy { Threads.sleep(seconds: 0.25) }
                if clock.now() - lastPrune > 60 {
                    lastPrune = clock.now()
                    let now = now()
                    memory.withLock {
                        $0.ended.prune(now: now)
                        $0.remembered.prune(now: now)
                        hasEntries.store(!$0.ended.isEmpty, ordering: .releasing)
                    }
                    follow.withLock { $0.logEntriesByExpiry = $0.logEntriesByExpiry.filter { ($0.key + 1) * 60 > now } }
                }
            }
        }
    }

    /// Reads what the log holds past the cursor (waiting up to `wait` seconds for news) and
    /// writes what this worker could not write before.
    /// True when it read a full page (more may be waiting).
    @discardableResult
    private func catchUp(wait: Double) -> Bool {
        do {
            let (read, next) = try store.events(after: follow.withLock { $0.cursor }, wait: wait)
            // Events past a log that went back may be new ones numbered again, or follow a gap
            // of lost ones: before the cursor moves on, the last one read must still be there.
            if !read.isEmpty, try logWentBack() {
                events.ledgerStoreReset(rewritten: try rewriteLostEntries())
                return true
            }
            follow.withLock { $0.cursor = next }
            if let event = read.last, let next { noteRead(event, at: next) }
            applyFromLog(read)
            try flushPending()
            if health.answeredAgain() {
                events.ledgerRecovered()
                // Away, the store may have restarted from an older copy or failed over.
                try checkWholeLog()
            }
            return read.count >= type(of: store).pageSize
        } catch {
            failed("follow", error)
            return false
        }
    }

    /// How many entries of the store's log this worker has read that are still in force (a
    /// gauge: each logout, back-channel logout and end from "Your sessions" adds one, kept for
    /// the sessions' absolute lifetime): what a worker reads at start. Its memory holds fewer,
    /// one per thing ended (`EndedSessions.count`).
    public var rememberedEntries: Int { follow.withLock { $0.logEntriesByExpiry.values.reduce(0) { $0 + $1.entries } } }

    /// The bytes of those entries as the store keeps them (a gauge: a long `sid` or `sub` makes
    /// an entry larger, and memory follows bytes, not entries).
    public var rememberedBytes: Int { follow.withLock { $0.logEntriesByExpiry.values.reduce(0) { $0 + $1.bytes } } }

    /// How many ended sessions this worker could not write to the store yet (a gauge: above 0
    /// only while the store is unreachable; other workers do not know of these until it returns).
    public var pendingEntries: Int { follow.withLock { $0.pending.count } }

    /// How many failovers of the store's primary this worker has seen (Redis Sentinel).
    public var storeFailovers: Int { store.failoversSeen }

    private func flushPending() throws(SharedStoreError) {
        let waiting = follow.withLock { $0.pending }
        for (index, entry) in waiting.enumerated() {
            do {
                try store.append(entry.encoded, keepUntil: Double(entry.until))
            } catch {
                follow.withLock { $0.pending.removeFirst(index) }
                throw error
            }
        }
        follow.withLock { $0.pending.removeFirst(waiting.count) }
    }

    /// Takes `entries` into this worker's memory.
    func apply(_ entries: [EndedSessions.Entry]) {
        let now = now()
        let live = entries.filter { $0.until > now }
        guard !live.isEmpty else { return }
        memory.withLock { memory in
            for entry in live {
                memory.ended.apply(entry)
                memory.remembered.remember(entry)
            }
            hasEntries.store(!memory.ended.isEmpty, ordering: .releasing)
        }
    }

    /// Takes the events read from the store's log into this worker's memory, counting those in
    /// force and their bytes as the log holds them (for the gauges) as they are read.
    func applyFromLog(_ events: [[UInt8]]) {
        let now = now()
        var entries: [EndedSessions.Entry] = []
        var sizes: [(minute: Int64, bytes: Int)] = []
        for event in events {
            guard let entry = EndedSessions.Entry(encoded: event) else { continue }
            entries.append(entry)
            if entry.until > now { sizes.append((entry.until / 60, event.count)) }
        }
        follow.withLock { follow in
            for (minute, bytes) in sizes {
                follow.logEntriesByExpiry[minute, default: (0, 0)].entries += 1
                follow.logEntriesByExpiry[minute, default: (0, 0)].bytes += bytes
            }
        }
        apply(entries)
    }

    func failed(_ operation: String, _ error: any Error) { health.failed(operation, error) }

    func now() -> Int64 { Int64(clock.now()) }
}
