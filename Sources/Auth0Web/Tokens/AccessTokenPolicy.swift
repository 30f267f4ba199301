/// When a session's access token is used as it is, when it is renewed first, and when the
/// session can no longer call Auth0.
public enum AccessTokenPolicy {
    /// A token that expires within this many seconds is renewed first, when it can be, so it
    /// does not expire on the way to the API.
    public static let renewalMargin: Int64 = 60

    /// What to do before a call with the session's token.
    public enum Decision: Equatable, Sendable {
        /// Call with this token.
        case use(String)
        /// Renew with this refresh token first.
        case renew(refreshToken: String)
        /// The token is gone or expired and nothing can renew it: the session must log in again.
        case ended
    }

    /// The decision for `token` and `refreshToken` at `now` (seconds since 1970). Without a
    /// refresh token (no `offline_access`, or an API that does not allow it) a token is used for
    /// as long as it still works, however short its life.
    public static func decide(token: AccessToken?, refreshToken: String?, now: Int64) -> Decision {
        if let token, token.expiresAt - now >= renewalMargin { return .use(token.value) }
        if let refreshToken { return .renew(refreshToken: refreshToken) }
        if let token, token.expiresAt > now { return .use(token.value) }
        return .ended
    }
}
