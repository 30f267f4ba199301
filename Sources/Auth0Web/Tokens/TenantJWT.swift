import Web

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
        // A `kid` that is there must be a string; one that is absent asks for the set's only key.
        let kid = jwt.header["kid"]
        guard kid == nil || kid?.string != nil, let key = try keys.key(for: kid?.string) else {
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
