import Web

/// The tokens the tenant's token endpoint answers with.
public struct TokenSet: Sendable {
    /// The bearer token for the API asked for (the Management API by default).
    public let accessToken: String
    /// The ID token (code exchange only).
    public let idToken: String?
    /// A refresh token, when `offline_access` was granted; a new one on each renewal with rotation.
    public var refreshToken: String?
    /// Seconds the access token lasts, as the tenant said.
    public let expiresIn: Int64
    /// The API the access token was asked for (`audience` of a refresh); nil: the login's own.
    public var audience: String? = nil
    /// The scopes granted, as the answer's `scope` said (nil when it said nothing).
    public var scope: String? = nil
    /// The longest `expires_in` believed: a year (Auth0 allows at most 30 days).
    public static let longestLifetime: Double = 365 * 86_400
}
