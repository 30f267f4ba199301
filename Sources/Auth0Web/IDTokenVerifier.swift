import Web

/// Checks an ID token as OpenID Connect requires: RS256 signature against the tenant's JWKS,
/// `iss`, `aud` (and `azp` when there are several audiences), `exp` and `iat` with leeway, `nonce`.
public struct IDTokenVerifier: Sendable {
    /// Clock skew allowed on `exp` and `iat`, in seconds.
    public static let leewaySeconds: Double = 60
    private let tenant: TenantJWT

    /// Checks tokens from `issuer` for the application `clientID`, with keys from `keys`.
    public init(issuer: String, clientID: String, keys: JWKSCache, clock: Clock) {
        tenant = TenantJWT(issuer: issuer, clientID: clientID, keys: keys, clock: clock)
    }

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

/// The checks every token the tenant signs for this application passes, ID token or logout
/// token: RS256 only, a key of the tenant's JWKS, the signature, `iss`, `aud`, and `exp` and
/// `iat` with leeway.
struct TenantJWT: Sendable {
    let issuer: String
    let clientID: String
    let keys: JWKSCache
    let clock: Clock

    func verify(_ token: String) throws(AuthError) -> JWT {
        guard let jwt = JWT(token) else { throw AuthError(.malformedToken) }
        // Only RS256: `none`, HS256 (which would accept the public key as a secret) and the rest are refused.
        guard jwt.header["alg"]?.string == "RS256" else {
            throw AuthError(.unsupportedAlgorithm, jwt.header["alg"]?.string ?? "none")
        }
        guard let kid = jwt.header["kid"]?.string, let key = try keys.key(for: kid) else {
            throw AuthError(.unknownKey)
        }
        guard key.verifyRS256(signature: jwt.signature, message: jwt.signedPart) else { throw AuthError(.badSignature) }
        let claims = jwt.claims
        guard claims["iss"]?.string == issuer else { throw AuthError(.wrongIssuer) }
        guard jwt.audiences.contains(clientID) else { throw AuthError(.wrongAudience) }
        let now = clock.now()
        guard claims["exp"] != nil else { throw AuthError(.missingClaim, "exp") }
        guard let exp = NumericDate.seconds(claims["exp"]) else { throw AuthError(.malformedToken, "exp out of range") }
        guard now < Double(exp) + IDTokenVerifier.leewaySeconds else { throw AuthError(.expired) }
        guard claims["iat"] != nil else { throw AuthError(.missingClaim, "iat") }
        guard let iat = NumericDate.seconds(claims["iat"]) else { throw AuthError(.malformedToken, "iat out of range") }
        guard Double(iat) <= now + IDTokenVerifier.leewaySeconds else { throw AuthError(.issuedInFuture) }
        return jwt
    }
}
