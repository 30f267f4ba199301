import Web

/// The session can no longer call Auth0: its refresh token was refused (`invalid_grant`), it has
/// none and its access token expired, or the Management API refused the token (401). The person
/// logs in again; nothing else ends a session.
public struct SessionEnded: HTTPResponseError, Equatable {
    /// Why, for the log.
    public let reason: String

    /// An ended session, with a stable reason.
    public init(_ reason: String) { self.reason = reason }

    /// 401: the person must log in again.
    public var status: Int { 401 }
    /// The same words as a refused renewal's.
    public var wordsKey: String { "error.logged_out" }
    /// The way on is `Log in`.
    public var offersLogin: Bool { true }
}
