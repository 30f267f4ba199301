/// What lives in memory until it is used once or expires (codes, session transfer tokens).
protocol ExpiringGrant: Sendable {
    var expiresAt: Double { get }
}
