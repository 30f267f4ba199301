import Locking
import Web

/// Each logout token is taken once across every worker (OpenID Connect Back-Channel Logout 1.0
/// §2.6: a `jti` seen before is a replay). The ids are added to the shared store, kept no longer
/// than the sessions live; the ones seen while the store was away are kept here too, so a replay
/// to this worker is refused even then.
public final class LogoutTokenReplay: Sendable {
    private let store: any SharedStore
    private let clock: Clock
    /// The longest an id is kept: a replay after that ends only what the token ended the first time.
    private let retentionSeconds: Int64
    /// Ids seen by this worker, until when.
    private let seenHere = Lock<[String: Int64]>([:])
    /// Told when the store fails an operation (the ledger's outage report).
    private let reportFailure: @Sendable (String, any Error) -> Void

    init(
        store: any SharedStore, clock: Clock, retentionSeconds: Int64,
        reportFailure: @escaping @Sendable (String, any Error) -> Void
    ) {
        self.store = store
        self.clock = clock
        self.retentionSeconds = retentionSeconds
        self.reportFailure = reportFailure
    }

    /// True the first time the logout token `jti` is seen on any worker; false for a replay. While
    /// the store is away, a token is accepted once per worker (a replayed logout only ends what
    /// the first one ended). The id is kept until `until`, at most the ledger's retention.
    public func firstSight(of jti: String, keptUntil until: Double) -> Bool {
        let now = clock.now()
        // NaN and absurd times from outside are clamped before any integer conversion.
        let ttl = until.isNaN ? 1 : min(max(1, until - now), Double(retentionSeconds))
        let keptUntil = Int64(now + ttl)
        let seenBefore = seenHere.withLock { seen -> Bool in
            let now = Int64(now)
            seen = seen.filter { $0.value > now }
            return seen.updateValue(keptUntil, forKey: jti) != nil
        }
        do {
            return try store.add("logout-token:" + jti, [1], ttl: ttl)
        } catch {
            reportFailure("add", error)
            return !seenBefore
        }
    }
}
