import Locking
import OpenSSLCrypto
import Web

/// One revalidation per session per interval across every worker: the page views of a session
/// that is due (its copies in several tabs, or a cookie someone replays) would otherwise each
/// read the Management API, which Auth0 budgets per tenant. The first to claim the session's
/// key in the shared store checks it with the tenant; the rest are served from the session.
public final class RevalidationClaims: Sendable {
    private let store: any SharedStore
    private let clock: Clock
    /// Sessions this worker checked or holds back from checking, until when.
    private let claims = Lock<[String: Double]>([:])
    /// Told when the store fails an operation (the ledger's outage report).
    private let reportFailure: @Sendable (String, any Error) -> Void

    init(store: any SharedStore, clock: Clock, reportFailure: @escaping @Sendable (String, any Error) -> Void) {
        self.store = store
        self.clock = clock
        self.reportFailure = reportFailure
    }

    /// True when the caller should check `session` with the tenant now: nobody on any worker
    /// claimed it in the last `seconds`. With the store away, this worker decides alone.
    public func claim(_ session: Session, for seconds: Double) -> Bool {
        let key = Self.key(session)
        guard claimHere(key, for: seconds) else { return false }
        do {
            return try store.add(key, [1], ttl: seconds)
        } catch {
            reportFailure("add", error)
            return true
        }
    }

    /// After a check that failed for the tenant's trouble: nobody checks `session` again for
    /// `seconds`, so a tenant answering 429 is not asked again by every page view.
    public func hold(_ session: Session, for seconds: Double) {
        let key = Self.key(session)
        claims.withLock { $0[key] = clock.now() + seconds }
        do { try store.set(key, [1], ttl: seconds) } catch { reportFailure("set", error) }
    }

    /// True, and remembered, when this worker has no live claim on `key`.
    private func claimHere(_ key: String, for seconds: Double) -> Bool {
        let now = clock.now()
        return claims.withLock { claims in
            if let until = claims[key], until > now { return false }
            if claims.count >= 10_000 { claims = claims.filter { $0.value > now } }
            claims[key] = now + seconds
            return true
        }
    }

    /// The session's key: a digest of its login's CSRF token, which the store never sees.
    private static func key(_ session: Session) -> String {
        "revalidation:"
            + Base64URL.encode(Array(SHA256.hash(Array(("revalidation\0" + session.csrfToken).utf8)).prefix(18)))
    }
}
