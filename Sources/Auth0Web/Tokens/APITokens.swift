import FoundationEssentials
import Locking
import OpenSSLCrypto
import Web

/// An access token for a mini app's API, checked to be what was asked for.
public struct APIToken: Sendable, Equatable {
    /// The bearer token.
    public let value: String
    /// Seconds since 1970.
    public let expiresAt: Int64
    /// Its `permissions` claim (Auth0's RBAC with "Add Permissions in the Access Token").
    public let permissions: [String]
    /// Its `scope` claim: what it grants.
    public let scopes: Set<String>
}

/// Why no token for a mini app's API could be handed on.
public struct APITokenUnavailable: Error, Equatable {
    /// What went wrong, as a typed case; its words in log lines are `reason`.
    public enum Cause: Equatable, Sendable {
        /// The provider answered with a token for another audience (Auth0 does so, silently, for
        /// an API no Multi-Resource Refresh Token policy names).
        case audienceMismatch
        /// The token lacks a scope asked for: with RBAC, one the person does not hold.
        case scopeNotGranted
        /// It grants an API scope the app did not ask for.
        case scopeNotAsked
        /// The login has no refresh token.
        case noRefreshToken
        /// The token endpoint failed.
        case renewalFailed(AuthError.Code)
    }

    /// What went wrong.
    public let cause: Cause

    /// The cause's words in log lines: `audience_mismatch`, `scope_not_granted`,
    /// `scope_not_asked`, `no_refresh_token`, or the token endpoint's failure code.
    public var reason: String {
        switch cause {
        case .audienceMismatch: "audience_mismatch"
        case .scopeNotGranted: "scope_not_granted"
        case .scopeNotAsked: "scope_not_asked"
        case .noRefreshToken: "no_refresh_token"
        case .renewalFailed(let code): code.rawValue
        }
    }
}

/// The person's access tokens for mini apps' APIs, one per login, audience and set of scopes (two
/// apps on one API asking different scopes never share a token), obtained as
/// Auth0's own SDKs obtain them: the session's refresh token exchanged with `audience` and `scope`
/// (Multi-Resource Refresh Token), spent once across every worker (`TokenRenewer`). Kept sealed in
/// the session ledger's store until a minute before they expire, never in the browser: every
/// worker finds the one obtained. What the provider answers is
/// checked (`aud`, `scope`) and a token that does not fit is never kept or handed on. Each worker
/// also remembers the tokens it has seen, so a check that finds one there reads nothing and may be
/// answered on a page thread.
public final class APITokens: Sendable {
    private let renewer: TokenRenewer
    private let store: any SharedStore
    /// Told when the store fails an operation (the ledger's outage report).
    private let reportFailure: @Sendable (String, any Error) -> Void
    private let sealer: CookieSealer
    private let clock: Clock
    /// Renewed this long before it expires.
    static let marginSeconds: Int64 = 60
    /// The tokens this worker has seen; forgotten whole past `memoLimit`.
    private let memo = Lock(APITokenMemo())
    static let memoLimit = 10_000

    /// Tokens renewed through `renewer`, kept in `ledger`'s store (whose outage report hears of its
    /// failures), sealed with a key from `secrets`.
    public init(renewer: TokenRenewer, ledger: SessionLedger, secrets: [String], clock: Clock) throws {
        self.renewer = renewer
        store = ledger.store
        reportFailure = { [ledger] in ledger.failed($0, $1) }
        sealer = try CookieSealer(secrets: secrets, purpose: "api-token", clock: clock)
        self.clock = clock
    }

    /// The token of `session` for `audience` and `scopes` this worker has seen, when it is good for
    /// another minute: no store, no tenant, nothing that waits.
    public func remembered(for session: Session, audience: String, scopes: [String]) -> APIToken? {
        let scope = Self.scope(scopes)
        guard let token = memo.withLock({ $0.token(login: session.csrfToken, audience: audience, scope: scope) })
        else { return nil }
        return token.expiresAt - Int64(clock.now()) > Self.marginSeconds ? token : nil
    }

    private func remember(_ token: APIToken, for session: Session, audience: String, scopes: [String]) {
        let scope = Self.scope(scopes)
        memo.withLock { memo in
            if memo.count >= Self.memoLimit { memo.removeAll() }
            memo.remember(token, login: session.csrfToken, audience: audience, scope: scope)
        }
    }

    /// The kept token of `session` for `audience` and `scopes`, when there is one good for another
    /// minute; calls nobody but the store.
    public func kept(for session: Session, audience: String, scopes: [String]) -> APIToken? {
        if let token = remembered(for: session, audience: audience, scopes: scopes) { return token }
        let name = Self.storeKey(session, audience, scopes)
        let now = Int64(clock.now())
        let sealed: [UInt8]?
        do { sealed = try store.get(name) } catch {
            reportFailure("get", error)
            sealed = nil
        }
        guard let sealed, let text = String(validating: sealed, as: UTF8.self),
            let opened = sealer.open(text, name: name),
            let token = String(validating: opened.payload, as: UTF8.self),
            let checked = Self.checked(token, audience: audience, scopes: scopes, now: now),
            checked.expiresAt - now > Self.marginSeconds
        else { return nil }
        remember(checked, for: session, audience: audience, scopes: scopes)
        return checked
    }

    /// The token of `session` for `audience` with `scopes`: the kept one, else a new one from the
    /// refresh token (which rotates: `session` keeps the new one). Throws `SessionEnded` when the
    /// provider refused the refresh token, else `APITokenUnavailable`.
    public func token(for session: inout Session, audience: String, scopes: [String]) throws -> APIToken {
        if let kept = kept(for: session, audience: audience, scopes: scopes) { return kept }
        guard let refreshToken = session.refreshToken else { throw APITokenUnavailable(cause: .noRefreshToken) }
        let tokens: TokenSet
        do {
            tokens = try renewer.renew(
                refreshToken: refreshToken, session: session.renewalScope,
                for: (audience, scopes.joined(separator: " ")))
        } catch {
            if error.code == .refreshRefused { throw SessionEnded(error.code.rawValue) }
            throw APITokenUnavailable(cause: .renewalFailed(error.code))
        }
        if let rotated = tokens.refreshToken { session.refreshToken = rotated }
        let now = Int64(clock.now())
        guard var token = Self.checked(tokens.accessToken, audience: audience, scopes: scopes, now: now) else {
            let forAudience = Self.checked(tokens.accessToken, audience: audience, scopes: [], now: now) != nil
            throw APITokenUnavailable(cause: forAudience ? .scopeNotGranted : .audienceMismatch)
        }
        // A token that can do more than the app asked for is not handed to it either.
        guard token.scopes.subtracting(Self.openIDScopes).isSubset(of: scopes) else {
            throw APITokenUnavailable(cause: .scopeNotAsked)
        }
        token = APIToken(
            value: token.value, expiresAt: min(token.expiresAt, now + tokens.expiresIn), permissions: token.permissions,
            scopes: token.scopes)
        let name = Self.storeKey(session, audience, scopes)
        let ttl = token.expiresAt - now - Self.marginSeconds
        if ttl > 0, let sealed = try? sealer.seal(Array(token.value.utf8), name: name, lifetime: ttl + 1) {
            // Unkept, the next check asks again.
            do { try store.set(name, Array(sealed.utf8), ttl: Double(ttl)) } catch { reportFailure("set", error) }
            remember(token, for: session, audience: audience, scopes: scopes)
        }
        return token
    }

    /// The store's key of one login's token for one API and set of scopes (in any order): a
    /// digest of the login's own random token (two logins of one person in one second, the second
    /// with a second factor, never share a token), the API and the scopes, so none of them is
    /// readable in the store. (A worker's memory, `APITokenMemo`, keeps the three apart.)
    static func storeKey(_ session: Session, _ audience: String, _ scopes: [String]) -> String {
        let named = session.csrfToken + "\u{0}" + audience + "\u{0}" + scope(scopes)
        return "api-token:" + Base64URL.encode(SHA256.hash(Array(named.utf8)))
    }

    /// Scopes in any order as one text (one scope as it is: no string made on a page view).
    static func scope(_ scopes: [String]) -> String {
        scopes.count == 1 ? scopes[0] : scopes.sorted().joined(separator: " ")
    }

    /// OpenID Connect's own scopes, which name no API's power.
    private static let openIDScopes: Set<String> = ["openid", "profile", "email", "address", "phone", "offline_access"]

    /// `token` when its claims say it is for `audience`, holds every one of `scopes` and has not
    /// expired at `now`; nil otherwise (or when it is not a JWT whose claims can be read).
    package static func checked(_ token: String, audience: String, scopes: [String], now: Int64) -> APIToken? {
        guard let jwt = JWT(token), let expires = NumericDate.seconds(jwt.claims["exp"]), expires > now,
            jwt.audiences.contains(audience)
        else { return nil }
        let granted = Set((jwt.claims["scope"]?.string ?? "").split(separator: " ").map(String.init))
        guard scopes.allSatisfy(granted.contains) else { return nil }
        return APIToken(
            value: token, expiresAt: expires, permissions: jwt.claims["permissions"]?.array?.compactMap(\.string) ?? [],
            scopes: granted)
    }
}
