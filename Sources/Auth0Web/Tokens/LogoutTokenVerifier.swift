import Web

/// Checks a logout token as OpenID Connect Back-Channel Logout 1.0 requires: the checks of an ID
/// token (`TenantJWT`), the back-channel logout event, a `sid` or a `sub`, a `jti`, and no
/// `nonce` (so an ID token can never pass for a logout token). Whether its `jti` was seen
/// before is the ledger's to say.
public struct LogoutTokenVerifier: Sendable {
    /// The `events` member a logout token carries.
    public static let event = "http://schemas.openid.net/event/backchannel-logout"
    /// How long a logout token without `exp` stands after its `iat`. Back-Channel Logout 1.0
    /// requires `exp`; its drafts did not, and providers built on them (Glewlwyd 2.7) send none.
    /// A logout token only ends sessions, and its `jti` is refused a second time, so a short
    /// life from `iat` is taken instead of refusing the provider's logouts altogether.
    public static let lifetimeWithoutExpiry: Int64 = 120
    /// The longest logout token read: Auth0's are about 1 KB (a few claims, one RS256 signature);
    /// anyone may post one, so a token past this is refused unread.
    public static let longest = 8 * 1024
    private let tenant: TenantJWT
    /// The provider whose logouts it takes (its issuer identifier, as its ID tokens say it): a
    /// front-channel logout names it in `iss`.
    public var issuer: String { tenant.issuer }

    /// Checks the application's tokens as `tenant` does, with RS256 too and a short life for a
    /// token without `exp`.
    init(tenant: TenantJWT) {
        var tenant = tenant
        tenant.accepted.insert(.rs256)
        tenant.lifetimeWithoutExpiry = Self.lifetimeWithoutExpiry
        tenant.longest = Self.longest
        self.tenant = tenant
    }

    /// What a valid logout token ends.
    public struct Logout: Sendable, Equatable {
        /// The tenant session it ends, when it names one.
        public let sid: String?
        /// The person, when it names one.
        public let sub: String?
        /// Its id, to refuse a replay.
        public let jti: String
        /// When it was issued (seconds since 1970): a `sub` alone ends the sessions begun before.
        public let issuedAt: Int64
        /// Until when a replay must be refused (its `exp` plus leeway).
        public let replayableUntil: Double
    }

    /// The logout a valid token asks for; throws `AuthError` naming the first failure.
    public func verify(_ token: String) throws(AuthError) -> Logout {
        let jwt = try tenant.verify(token)
        let claims = jwt.claims
        guard claims["events"]?[LogoutTokenVerifier.event]?.object != nil else {
            throw AuthError(.notALogoutToken, "no back-channel logout event")
        }
        guard claims["nonce"] == nil else { throw AuthError(.notALogoutToken, "nonce present") }
        let sid = claims["sid"]?.string.flatMap { $0.isEmpty ? nil : $0 }
        let sub = claims["sub"]?.string.flatMap { $0.isEmpty ? nil : $0 }
        guard sid != nil || sub != nil else { throw AuthError(.notALogoutToken, "neither sid nor sub") }
        guard let jti = claims["jti"]?.string, !jti.isEmpty else { throw AuthError(.missingClaim, "jti") }
        // TenantJWT checked both are NumericDates in range, so these are whole seconds.
        let iat = NumericDate.seconds(claims["iat"]) ?? 0
        let exp = tenant.expiry(claims, issuedAt: iat) ?? iat
        return Logout(
            sid: sid, sub: sub, jti: jti, issuedAt: iat, replayableUntil: Double(exp) + IDTokenVerifier.leewaySeconds)
    }
}
