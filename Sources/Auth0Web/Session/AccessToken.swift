/// An access token and when it stops working.
public struct AccessToken: Sendable, Equatable {
    /// The bearer token.
    public var value: String
    /// Seconds since 1970.
    public var expiresAt: Int64

    /// A token that works until `expiresAt` (seconds since 1970).
    public init(value: String, expiresAt: Int64) {
        self.value = value
        self.expiresAt = expiresAt
    }
}
