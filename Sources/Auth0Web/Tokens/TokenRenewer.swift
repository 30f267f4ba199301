import FoundationEssentials
import Locking
import OpenSSLCrypto
import Synchronization
import Web

/// Renews access tokens with the refresh token, once per refresh token and session in the
/// process: concurrent requests of one session wait for the renewal in flight and share its
/// result, and one that still carries the old refresh token a moment later (it left the browser
/// before the new cookies came back) gets the same result instead of replaying a used token,
/// which the tenant would treat as theft. Only new tokens and a refusal of the token are kept:
/// after any other failure (no answer, 429, 5xx) the next request tries again. With a session
/// ledger, the same holds across worker processes and machines (`RenewalLock.renewOnce`).
public final class TokenRenewer: Sendable {
    /// How long a finished renewal's result is handed to latecomers. Only as long as requests
    /// already on their way need: kept longer, it would also hand new tokens to whoever replays
    /// a copied older cookie.
    public static let resultGraceSeconds: Double = 10

    /// One renewal in flight: its result once there, and when it finished (old ones are forgotten).
    private final class Flight: Sendable {
        struct State {
            var result: Result<TokenSet, AuthError>?
            var finishedAt: Double = .infinity
        }
        let state = ConditionLock(State())
        var finishedAt: Double { state.withLock { $0.finishedAt } }
    }

    private let tokens: TokenClient
    private let ledger: SessionLedger?
    /// How long a worker waits for another's renewal of the same token: a token call's timeout and some.
    private let waitSeconds: Double
    private let clock: Clock
    private let flights = Lock<[[UInt8]: Flight]>([:])
    private let renewals = Atomic<Int>(0)

    /// A renewer calling `tokens`, keeping results by the time `clock` says, sharing renewals with
    /// the other workers through `ledger` when there is one.
    public init(tokens: TokenClient, clock: Clock, ledger: SessionLedger? = nil, waitSeconds: Double = 15) {
        self.tokens = tokens
        self.ledger = ledger
        self.waitSeconds = waitSeconds
        self.clock = clock
    }

    /// How many renewals this process led (one per refresh token in flight); with a ledger, a
    /// led renewal may still take another worker's result instead of calling the tenant.
    package var renewalCount: Int { renewals.load(ordering: .relaxed) }

    /// The tokens that replace those of `refreshToken`, for the session `session` names (the
    /// person and the login time), with the access token for `api` (a mini app's API, through
    /// Auth0's Multi-Resource Refresh Token) or, without it, for the login's own audience. A
    /// result is shared only within the session it was made for. One refresh token is spent once
    /// whatever it was spent for: a request that finds it spent for another audience goes on from
    /// the token it was rotated to.
    /// A refresh token whose rotation never reached this browser (the answer that carried it was
    /// dropped) is not spent again: the renewal starts from the newest token it was rotated to,
    /// and the result always names the refresh token the session holds from now on.
    public func renew(refreshToken: String, session: String, for api: (audience: String, scope: String)? = nil)
        throws(AuthError) -> TokenSet
    {
        var token = newest(after: refreshToken, session: session) ?? refreshToken
        // A result that did not rotate still names the token followed to, when it is not the browser's.
        func holding(_ result: TokenSet) -> TokenSet {
            guard result.refreshToken == nil, token != refreshToken else { return result }
            var named = result
            named.refreshToken = token
            return named
        }
        for _ in 0..<4 {
            let result = holding(try renewShared(refreshToken: token, session: session, api: api))
            if result.audience == api?.audience { return result }
            // Not rotated: the same token may be spent again, here alone.
            guard let next = result.refreshToken, next != token else { return holding(try spend(token, for: api)) }
            token = next
        }
        throw AuthError(.tenantUnavailable, "the refresh token was spent for other audiences four times running")
    }

    /// The digest a refresh token is known by in this session (raw tokens are not kept as keys).
    private static func key(_ refreshToken: String, session: String) -> [UInt8] {
        SHA256.hash(Array(refreshToken.utf8) + [0] + Array(session.utf8))
    }

    /// The newest token `refreshToken` was rotated to in `session`, by any worker; nil when it
    /// was not (or there is no ledger to ask).
    private func newest(after refreshToken: String, session: String) -> String? {
        ledger?.renewals.newest(
            after: Self.key(refreshToken, session: session), settledAfter: Self.resultGraceSeconds / 2
        ) {
            Self.key($0, session: session)
        }
    }

    /// One call to the token endpoint with `refreshToken`, for `api` or the login's own audience.
    private func spend(_ refreshToken: String, for api: (audience: String, scope: String)?) throws(AuthError)
        -> TokenSet
    {
        guard let api else { return try tokens.refresh(refreshToken) }
        return try tokens.refresh(refreshToken, audience: api.audience, scope: api.scope)
    }

    private func renewShared(refreshToken: String, session: String, api: (audience: String, scope: String)?)
        throws(AuthError) -> TokenSet
    {
        let key = Self.key(refreshToken, session: session)
        let now = clock.now()
        let (flight, leads) = flights.withLock { flights -> (Flight, Bool) in
            flights = flights.filter { now - $0.value.finishedAt < TokenRenewer.resultGraceSeconds }
            if let existing = flights[key] { return (existing, false) }
            let flight = Flight()
            flights[key] = flight
            return (flight, true)
        }
        if leads {
            renewals.add(1, ordering: .relaxed)
            let call = { () throws(AuthError) -> TokenSet in try self.spend(refreshToken, for: api) }
            let result = Result { () throws(AuthError) in
                guard let ledger else { return try call() }
                return try ledger.renewals.renewOnce(
                    key: key, graceSeconds: TokenRenewer.resultGraceSeconds, timeout: waitSeconds, call)
            }
            let finished = clock.now()
            flight.state.change {
                $0.finishedAt = finished
                $0.result = result
            }
            if case .failure(let error) = result, error.code != .refreshRefused {
                flights.withLock { flights in
                    if flights[key] === flight { flights[key] = nil }
                }
            }
            return try result.get()
        }
        return try flight.state.wait { $0.result }.get()
    }
}
