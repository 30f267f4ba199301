/// A session transfer token waiting for `/authorize` (Native to Web SSO): kept in memory, as it
/// lives a minute and works once.
struct TransferGrant: ExpiringGrant {
    /// The person it logs in.
    let userID: String
    /// The address it was issued to, when the issuing application binds it to the device (`ip`).
    let boundAddress: String?
    let expiresAt: Double
}
