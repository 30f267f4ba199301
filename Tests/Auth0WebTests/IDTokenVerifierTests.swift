import Auth0Web
import OpenSSLCrypto
import TestSupport
import Testing
import Web

@Suite struct IDTokenVerifierTests {
    static let issuer = "https://tenant.example.com/"
    let keys = TestKeys.shared
    let time = ManualClock()

    private func verifier() -> (IDTokenVerifier, JWKSCache) {
        let cache = JWKSCache(
            url: Self.issuer + ".well-known/jwks.json", http: keys, clock: time.clock, timeoutSeconds: 5)
        return (IDTokenVerifier(issuer: Self.issuer, clientID: "client-1", keys: cache, clock: time.clock), cache)
    }

    private func claims(_ changes: [String: JSONValue?] = [:]) -> [String: JSONValue] {
        var claims: [String: JSONValue] = [
            "iss": .string(Self.issuer), "sub": "auth0|123", "aud": "client-1", "iat": .number(1_700_000_000),
            "exp": .number(1_700_036_000), "nonce": "n-1", "name": "Skippy", "email": "skippy@example.com",
        ]
        for (key, value) in changes { claims[key] = value }
        return claims
    }

    private func failure(_ token: String, nonce: String = "n-1") -> AuthError.Code? {
        do {
            _ = try verifier().0.verify(token, nonce: nonce)
            return nil
        } catch {
            return error.code
        }
    }

    @Test func acceptsAGoodToken() throws {
        let verified = try verifier().0.verify(try keys.token(claims: claims()), nonce: "n-1")
        #expect(verified["sub"]?.string == "auth0|123")
    }

    @Test func acceptsSeveralAudiencesWithMatchingAzp() throws {
        let token = try keys.token(claims: claims(["aud": .array(["client-1", "https://api"]), "azp": "client-1"]))
        #expect(failure(token) == nil)
        let wrongAzp = try keys.token(claims: claims(["aud": .array(["client-1", "https://api"]), "azp": "other"]))
        #expect(failure(wrongAzp) == .wrongAuthorizedParty)
        let missingAzp = try keys.token(claims: claims(["aud": .array(["client-1", "https://api"])]))
        #expect(failure(missingAzp) == .wrongAuthorizedParty)
    }

    /// Issue 41, item 1: every algorithm a provider may be registered to sign with, each
    /// accepted when it is the registered one and refused when another is (HS512 is the
    /// default of a certified provider in Debian; the person saw "The login could not be
    /// verified").
    @Test(arguments: SigningAlgorithm.allCases)
    func theRegisteredAlgorithmIsAcceptedAndNoOther(_ algorithm: SigningAlgorithm) throws {
        let secret = "the-client-secret-of-client-1-0123456789abcdef"
        let cache = JWKSCache(
            url: Self.issuer + ".well-known/jwks.json", http: keys, clock: time.clock, timeoutSeconds: 5)
        func verifier(_ registered: SigningAlgorithm) -> IDTokenVerifier {
            IDTokenVerifier(
                issuer: Self.issuer, clientID: "client-1", keys: cache, clock: time.clock, algorithm: registered,
                clientSecret: secret)
        }
        let token = try keys.token(algorithm, secret: secret, claims: claims())
        #expect(try verifier(algorithm).verify(token, nonce: "n-1")["sub"]?.string == "auth0|123")
        for other in SigningAlgorithm.allCases where other != algorithm {
            #expect(throws: AuthError(.unsupportedAlgorithm, algorithm.rawValue)) {
                try verifier(other).verify(token, nonce: "n-1")
            }
        }
        // Signed with the wrong secret, or its signature changed: refused.
        let forged = try keys.token(algorithm, secret: "another-secret", claims: claims())
        if algorithm.isHMAC {
            #expect(throws: AuthError(.badSignature)) { try verifier(algorithm).verify(forged, nonce: "n-1") }
        }
        var bytes = Array(token.utf8)
        bytes[bytes.count - 5] = bytes[bytes.count - 5] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        #expect(throws: AuthError.self) {
            try verifier(algorithm).verify(String(decoding: bytes, as: UTF8.self), nonce: "n-1")
        }
    }

    /// An HMAC-registered application never takes a key from the JWKS, and an RSA-registered
    /// one never takes the secret: HS256 with the public key's bytes as the secret is refused
    /// under either.
    @Test func anHMACTokenMadeWithThePublicKeyIsRefusedEitherWay() throws {
        let (n, _) = try keys.key.publicComponents()
        let publicBytes = String(decoding: Base64URL.encode(n).utf8, as: UTF8.self)
        let token = try keys.token(.hs256, secret: publicBytes, claims: claims())
        #expect(failure(token) == .unsupportedAlgorithm)
        let cache = JWKSCache(
            url: Self.issuer + ".well-known/jwks.json", http: keys, clock: time.clock, timeoutSeconds: 5)
        let hmac = IDTokenVerifier(
            issuer: Self.issuer, clientID: "client-1", keys: cache, clock: time.clock, algorithm: .hs256,
            clientSecret: "the-real-secret-0123456789abcdef")
        #expect(throws: AuthError(.badSignature)) { try hmac.verify(token, nonce: "n-1") }
        #expect(cache.fetchCount == 0, "no key of the set is ever used for HMAC")
    }

    @Test func refusesAlgNone() throws {
        let token = try keys.token(header: ["alg": "none", "typ": "JWT"], claims: claims(), signature: [])
        #expect(failure(token) == .unsupportedAlgorithm)
    }

    @Test func refusesHS256SignedWithThePublicKey() throws {
        // The classic confusion attack: HMAC with the public key bytes as the secret.
        let token = try keys.token(
            header: ["alg": "HS256", "typ": "JWT", "kid": .string(keys.kid)], claims: claims(),
            signature: Array(repeating: 1, count: 32))
        #expect(failure(token) == .unsupportedAlgorithm)
    }

    @Test func refusesUnknownKidAfterOneFetch() throws {
        let (verifier, cache) = verifier()
        let token = try keys.token(header: ["alg": "RS256", "kid": "rotated-away"], claims: claims())
        #expect(throws: AuthError(.unknownKey)) { try verifier.verify(token, nonce: "n-1") }
        #expect(cache.fetchCount == 1)
    }

    @Test func refusesABadSignature() throws {
        var token = try keys.token(claims: claims())
        token.removeLast(4)
        token += "AAAA"
        #expect(failure(token) == .badSignature)
        let otherKey = try RSAPrivateKey(generatingBits: 2048)
        let input = try keys.token(claims: claims()).split(separator: ".").prefix(2).joined(separator: ".")
        let forged = input + "." + Base64URL.encode(try otherKey.signRS256(Array(input.utf8)))
        #expect(failure(forged) == .badSignature)
    }

    @Test func refusesWrongIssuerAudienceNonceAndTimes() throws {
        #expect(failure(try keys.token(claims: claims(["iss": "https://evil.example/"]))) == .wrongIssuer)
        #expect(failure(try keys.token(claims: claims(["aud": "another-client"]))) == .wrongAudience)
        #expect(failure(try keys.token(claims: claims()), nonce: "other") == .nonceMismatch)
        #expect(failure(try keys.token(claims: claims(["nonce": nil])), nonce: "n-1") == .nonceMismatch)
        #expect(failure(try keys.token(claims: claims(["exp": .number(1_699_999_939)]))) == .expired)
        #expect(failure(try keys.token(claims: claims(["exp": .number(1_699_999_941)]))) == nil)  // within leeway
        #expect(failure(try keys.token(claims: claims(["iat": .number(1_700_000_061)]))) == .issuedInFuture)
        #expect(failure(try keys.token(claims: claims(["exp": nil]))) == .missingClaim)
        #expect(failure(try keys.token(claims: claims(["sub": ""]))) == .missingClaim)
    }

    /// Times no real token carries are refused as malformed, before anything converts them.
    @Test func refusesTimesOutOfRange() throws {
        for changes: [String: JSONValue?] in [
            ["exp": .number(1e300)], ["exp": .number(-.infinity)], ["iat": .number(-1e300)], ["iat": .number(-1)],
            ["exp": .number(253_402_300_800)], ["exp": .string("1700036000")],
        ] {
            #expect(failure(try keys.token(claims: claims(changes))) == .malformedToken, "\(changes)")
        }
    }

    @Test func refusesMalformedTokens() {
        for token in ["", "a.b", "a.b.c", "....", String(repeating: "a", count: 20_000)] {
            #expect(failure(token) == .malformedToken, "\(token.prefix(20))")
        }
        // Claims that are not JSON under a signature that does not hold: the signature is judged
        // first, and the claims of a token it refuses are never read (the fifth review, finding 2).
        #expect(failure("eyJhbGciOiJSUzI1NiJ9.bm90IGpzb24.sig") == .badSignature)
    }
}
