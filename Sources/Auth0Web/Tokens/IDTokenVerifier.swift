import Web

/// Checks an ID token as OpenID Connect requires: signed with the algorithm the application is
/// registered for (RS256 unless told), `iss`, `aud` (and `azp` when there are several
/// audiences), `exp` and `iat` with leeway, `nonce`.
public struct IDTokenVerifier: Sendable {
    /// Clock skew allowed on `exp` and `iat`, in seconds.
    public static let leewaySeconds: Double = 60
    private let tenant: TenantJWT

    /// Checks tokens from `issuer` for the application `clientID` signed with `algorithm`, with
    /// keys from `keys` (RSA) or `clientSecret` (HMAC).
    public init(
        issuer: String, clientID: String, keys: JWKSCache, clock: Clock, algorithm: SigningAlgorithm = .rs256,
        clientSecret: String = ""
    ) {
        self.init(
            tenant: TenantJWT(
                issuer: issuer, clientID: clientID, keys: keys, clock: clock, accepted: [algorithm],
                clientSecret: Array(clientSecret.utf8)))
    }

    /// Checks the application's tokens as `tenant` does.
    init(tenant: TenantJWT) { self.tenant = tenant }

    /// The token's claims once every check passes; throws `AuthError` naming the first failure.
    public func verify(_ token: String, nonce: String) throws(AuthError) -> JSONValue {
        let jwt = try tenant.verify(token)
        let claims = jwt.claims
        if jwt.audiences.count > 1 || claims["azp"] != nil {
            guard claims["azp"]?.string == tenant.clientID else { throw AuthError(.wrongAuthorizedParty) }
        }
        guard let sent = claims["nonce"]?.string, sent == nonce else { throw AuthError(.nonceMismatch) }
        guard let sub = claims["sub"]?.string, !sub.isEmpty else { throw AuthError(.missingClaim, "sub") }
        return claims
    }
}
