import Web

/// Checks an ID token as OpenID Connect requires: RS256 signature against the tenant's JWKS,
/// `iss`, `aud` (and `azp` when there are several audiences), `exp` and `iat` with leeway, `nonce`.
public struct IDTokenVerifier: Sendable {
    /// Clock skew allowed on `exp` and `iat`, in seconds.
    public static let leewaySeconds: Double = 60
    private let issuer: String
    private let clientID: String
    private let keys: JWKSCache
    private let clock: Clock

    /// Checks tokens from `issuer` for the application `clientID`, with keys from `keys`.
    public init(issuer: String, clientID: String, keys: JWKSCache, clock: Clock) {
        self.issuer = issuer
        self.clientID = clientID
        self.keys = keys
        self.clock = clock
    }

    /// The token's claims once every check passes; throws `AuthError` naming the first failure.
    public func verify(_ token: String, nonce: String) throws(AuthError) -> JSONValue {
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
        let audiences = jwt.audiences
        guard audiences.contains(clientID) else { throw AuthError(.wrongAudience) }
        if audiences.count > 1 || claims["azp"] != nil {
            guard claims["azp"]?.string == clientID else { throw AuthError(.wrongAuthorizedParty) }
        }
        let now = clock.now()
        guard let exp = claims["exp"]?.number else { throw AuthError(.missingClaim, "exp") }
        guard now < exp + IDTokenVerifier.leewaySeconds else { throw AuthError(.expired) }
        guard let iat = claims["iat"]?.number else { throw AuthError(.missingClaim, "iat") }
        guard iat <= now + IDTokenVerifier.leewaySeconds else { throw AuthError(.issuedInFuture) }
        guard let sent = claims["nonce"]?.string, sent == nonce else { throw AuthError(.nonceMismatch) }
        guard let sub = claims["sub"]?.string, !sub.isEmpty else { throw AuthError(.missingClaim, "sub") }
        return claims
    }
}
