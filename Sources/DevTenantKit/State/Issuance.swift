import Web

extension DevTenant {
    /// What one token answer is issued for: the person, the application, the scopes asked, the
    /// login's audience and tenant session, how the person authenticated, the DPoP key, and
    /// either the nonce and state hash of a code's login or the refresh token's family.
    struct Issuance {
        let user: TenantUser
        let clientID: String
        let scope: String
        let audience: String?
        let sessionID: String
        let authTime: Double?
        let multiFactor: Bool
        let jkt: String?
        var nonce: String? = nil
        var stateHash: String? = nil
        /// The rotated refresh token's family and its end; nil: a new family.
        var family: (id: String, expiresAt: Double)? = nil
    }
}
