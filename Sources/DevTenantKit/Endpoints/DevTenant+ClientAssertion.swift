import OpenSSLCrypto
import Web

/// Auth0's Private Key JWT client authentication, as its guide describes the assertion: signed
/// with one of the application's credentials (its `alg`; the `kid`, when sent, Auth0's for that
/// credential), `iss` and `sub` the client id, `aud` the tenant's URL with its trailing slash,
/// `exp` at most five minutes after it was made, and a `jti` used once.
extension DevTenant {
    /// The longest an assertion may live, as at Auth0.
    static let assertionLifetimeLimit = 300.0

    /// The application a `private_key_jwt` assertion in `params` proves, or nil (the reason logged).
    func assertedClient(_ params: [String: String]) -> TenantConfig.Client? {
        func refuse(_ reason: String) -> TenantConfig.Client? {
            log(.info, "client assertion refused", ["reason": reason])
            return nil
        }
        guard params["client_assertion_type"] == "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
            let token = params["client_assertion"], params["client_secret"] == nil
        else { return refuse("client_assertion_type") }
        guard let jws = CompactJWS(token) else { return refuse("malformed") }
        let claims = jws.claims
        guard let id = claims["iss"]?.string, claims["sub"]?.string == id, params["client_id"] ?? id == id,
            let client = directory.client(id), !client.credentials.isEmpty
        else { return refuse("iss") }
        guard ClientCredential.signed(jws, byOneOf: client.credentials) else { return refuse("signature") }
        guard TenantSigner.audiences(claims).contains(config.issuer) else { return refuse("aud") }
        let now = now()
        guard let exp = claims["exp"]?.number, exp > now,
            exp - (claims["iat"]?.number ?? now) <= Self.assertionLifetimeLimit
        else { return refuse("exp") }
        guard let jti = claims["jti"]?.string, !jti.isEmpty,
            store.firstUse(ofJTI: jti, from: id, until: exp)
        else { return refuse("jti") }
        return client
    }
}
