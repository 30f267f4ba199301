import OpenSSLCrypto
import Web

/// The checks every token the tenant signs for this application passes, ID token or logout
/// token: an algorithm it is registered to sign with (`accepted`), the signature (RSA: a key of
/// the tenant's JWKS; HMAC: the client secret), `iss`, `aud`, and `exp` and `iat` with leeway.
struct TenantJWT: Sendable {
    let issuer: String
    let clientID: String
    let keys: JWKSCache
    let clock: Clock
    /// The algorithms a token may name: the one the application is registered for, and for a
    /// logout token RS256 too; any other (`none` among them) is refused.
    var accepted: Set<SigningAlgorithm>
    /// The HMAC key of HS256/384/512: the client secret's bytes.
    let clientSecret: [UInt8]
    /// How long after its `iat` a token without `exp` is valid; nil: `exp` is required.
    var lifetimeWithoutExpiry: Int64?
    /// The longest token read (a logout token's limit is far below an ID token's).
    var longest = JWT.longest

    func verify(_ token: String) throws(AuthError) -> JWT {
        // The header and the signature first: claims are parsed only once the signature holds.
        guard let jwt = CompactJWS(token, longest: longest) else { throw AuthError(.malformedToken) }
        let named = jwt.header["alg"]?.string
        guard let algorithm = named.flatMap(SigningAlgorithm.init(rawValue:)), accepted.contains(algorithm) else {
            throw AuthError(.unsupportedAlgorithm, named ?? "none")
        }
        if algorithm.isHMAC {
            guard !clientSecret.isEmpty,
                HMAC.verify(algorithm.digest, key: clientSecret, message: jwt.signedPart, mac: jwt.signature)
            else { throw AuthError(.badSignature) }
        } else {
            // A `kid` that is there must be a string; one that is absent lets every key of the
            // algorithm's kind try, and the set is fetched again (rate-limited) if none verifies.
            let kid = jwt.header["kid"]
            guard kid == nil || kid?.string != nil else { throw AuthError(.unknownKey) }
            let candidates = try keys.candidates(kid: kid?.string, for: algorithm)
            guard !candidates.isEmpty else { throw AuthError(.unknownKey) }
            let verifies = { (key: TenantKey) in key.verifies(jwt.signature, of: jwt.signedPart, with: algorithm) }
            if !candidates.contains(where: verifies) {
                guard kid == nil, try keys.candidatesAfterRefetch(for: algorithm).contains(where: verifies) else {
                    throw AuthError(.badSignature)
                }
            }
        }
        guard let verified = JWT(verified: jwt) else { throw AuthError(.malformedToken) }
        let claims = verified.claims
        guard claims["iss"]?.string == issuer else { throw AuthError(.wrongIssuer) }
        guard verified.audiences.contains(clientID) else { throw AuthError(.wrongAudience) }
        let now = clock.now()
        guard claims["exp"] != nil || lifetimeWithoutExpiry != nil else { throw AuthError(.missingClaim, "exp") }
        guard claims["iat"] != nil else { throw AuthError(.missingClaim, "iat") }
        guard let iat = NumericDate.seconds(claims["iat"]) else { throw AuthError(.malformedToken, "iat out of range") }
        guard let exp = expiry(claims, issuedAt: iat) else { throw AuthError(.malformedToken, "exp out of range") }
        // The leeway is for clocks that differ on `exp`; a life counted from `iat` already is the
        // whole allowance (a logout token without `exp` stands exactly that long).
        let leeway = claims["exp"] == nil ? 0 : IDTokenVerifier.leewaySeconds
        guard now < Double(exp) + leeway else { throw AuthError(.expired) }
        guard Double(iat) <= now + IDTokenVerifier.leewaySeconds else { throw AuthError(.issuedInFuture) }
        return verified
    }

    /// When a token issued at `iat` with `claims` expires: its `exp`, else `iat` plus
    /// `lifetimeWithoutExpiry` when a token may go without.
    func expiry(_ claims: JSONValue, issuedAt iat: Int64) -> Int64? {
        claims["exp"] == nil ? lifetimeWithoutExpiry.map { iat + $0 } : NumericDate.seconds(claims["exp"])
    }
}
