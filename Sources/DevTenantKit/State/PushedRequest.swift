import Web

/// An authorization request an application pushed (RFC 9126), waiting for the browser to bring
/// its reference to `/authorize`: kept in memory, as it lives thirty seconds and works once.
struct PushedRequest: ExpiringGrant {
    /// The application that pushed it: only it may use the reference.
    let clientID: String
    /// The request's parameters, as `/authorize` would have read them from its query.
    let parameters: FormData
    let expiresAt: Double
}
