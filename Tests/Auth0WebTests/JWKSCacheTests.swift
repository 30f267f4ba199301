import Auth0Web
import Locking
import OpenSSLCrypto
import TestSupport
import Testing
import Web

/// Keys as providers publish them: without `kid`, several at once, rotated between two logins,
/// and a flood of made-up `kid`s that must not become a flood of fetches.
@Suite struct JWKSCacheTests {
    static let issuer = "https://op.example.com/realms/demo"
    // swift-format-ignore: NeverUseForceTry
    /// A second key pair, as a provider's next signing key.
    static let next = try! TestKeys()
    let first = TestKeys.shared
    let time = ManualClock()

    /// The JWKS a provider publishes, changed by a rotation.
    private final class Published: Sendable {
        let document: Lock<JSONValue>
        init(_ document: JSONValue) { self.document = Lock(document) }
    }

    /// A provider whose JWKS is whatever `published` holds when it is fetched.
    private func provider(_ published: Published) -> (IDTokenVerifier, JWKSCache) {
        let http = ScriptedHTTPClient { _ in
            HTTPClientResponse(status: 200, body: published.document.withLock { $0 }.serialized())
        }
        let cache = JWKSCache(url: "https://op.example.com/certs", http: http, clock: time.clock, timeoutSeconds: 5)
        return (IDTokenVerifier(issuer: Self.issuer, clientID: "client-1", keys: cache, clock: time.clock), cache)
    }

    private func token(_ keys: TestKeys, kid: String?) throws -> String {
        var header: [String: JSONValue] = ["alg": "RS256", "typ": "JWT"]
        if let kid { header["kid"] = .string(kid) }
        return try keys.token(
            header: header,
            claims: [
                "iss": .string(Self.issuer), "sub": "user-1", "aud": "client-1", "iat": .number(1_700_000_000),
                "exp": .number(1_700_036_000), "nonce": "n-1",
            ])
    }

    private func accepts(_ verifier: IDTokenVerifier, _ token: String) -> Bool {
        (try? verifier.verify(token, nonce: "n-1")) != nil
    }

    @Test func aTokenWithoutKidIsCheckedWithTheSetsOnlyKey() throws {
        for published in [try first.jwk(kid: nil), try first.jwk(kid: "k1")] {
            let (verifier, _) = provider(Published(TestKeys.jwks([published])))
            #expect(accepts(verifier, try token(first, kid: nil)))
            #expect(!accepts(verifier, try token(Self.next, kid: nil)), "another key's signature")
        }
    }

    /// Found against Glewlwyd 2.7: a P-521 coordinate whose first byte is zero published in 65
    /// bytes, not the 66 RFC 7518 asks for, made its ES512 key unusable ("unknown key").
    @Test func aP521CoordinateWithoutItsLeadingZeroStillServes() throws {
        var key = try SignaturePrivateKey(curve: .p521)
        var (x, y) = try key.publicCoordinates()
        while x.first != 0 {  // about one key in two
            key = try SignaturePrivateKey(curve: .p521)
            (x, y) = try key.publicCoordinates()
        }
        let jwk: JSONValue = .object([
            "kty": "EC", "crv": "P-521", "alg": "ES512", "x": .string(Base64URL.encode(Array(x.dropFirst()))),
            "y": .string(Base64URL.encode(try #require(y))),
        ])
        let input =
            Base64URL.encode(JSONValue.object(["alg": "ES512", "typ": "JWT"]).serialized()) + "."
            + Base64URL.encode(
                JSONValue.object([
                    "iss": .string(Self.issuer), "sub": "user-1", "aud": "client-1", "iat": .number(1_700_000_000),
                    "exp": .number(1_700_036_000), "nonce": "n-1",
                ]).serialized())
        let signature = try key.sign(Array(input.utf8), digest: .sha512)
        let es512 = IDTokenVerifier(
            issuer: Self.issuer, clientID: "client-1",
            keys: JWKSCache(
                url: "https://op.example.com/certs",
                http: ScriptedHTTPClient { _ in HTTPClientResponse(status: 200, body: TestKeys.jwks([jwk]).serialized())
                },
                clock: time.clock, timeoutSeconds: 5), clock: time.clock, algorithm: .es512)
        #expect((try? es512.verify(input + "." + Base64URL.encode(signature), nonce: "n-1")) != nil)
    }

    @Test func anEncryptionKeyDoesNotMakeTheSigningKeyAmbiguous() throws {
        let published = TestKeys.jwks([try first.jwk(kid: nil), try Self.next.jwk(kid: nil, use: "enc")])
        let (verifier, _) = provider(Published(published))
        #expect(accepts(verifier, try token(first, kid: nil)))
    }

    /// Issue 41, item 1: a token without `kid` against a set of several keys tries each key of
    /// its algorithm's kind (it was refused); one none verifies fetches the set again, but no
    /// more often than the bucket allows, so forged kid-less tokens cannot make a fetch each.
    @Test func aTokenWithoutKidAgainstSeveralSigningKeysTriesEach() throws {
        let published = TestKeys.jwks([try first.jwk(kid: "k1"), try Self.next.jwk(kid: "k2")])
        let (verifier, cache) = provider(Published(published))
        #expect(accepts(verifier, try token(first, kid: nil)))
        #expect(accepts(verifier, try token(Self.next, kid: nil)))
        #expect(cache.fetchCount == 1)
        let stranger = try TestKeys()
        for _ in 0..<20 {
            #expect(throws: AuthError(.badSignature)) {
                try verifier.verify(try token(stranger, kid: nil), nonce: "n-1")
            }
        }
        #expect(cache.fetchCount == JWKSCache.refetchBurst, "\(cache.fetchCount) fetches for 20 forged tokens")
        #expect(accepts(verifier, try token(Self.next, kid: "k2")))
    }

    @Test func aRotatedKeyIsFetchedAtTheFirstTokenSignedWithIt() throws {
        let published = Published(TestKeys.jwks([try first.jwk(kid: "old")]))
        let (verifier, cache) = provider(published)
        #expect(accepts(verifier, try token(first, kid: "old")))
        time.advance(2)
        let rotated = TestKeys.jwks([try Self.next.jwk(kid: "new")])
        published.document.withLock { $0 = rotated }
        #expect(accepts(verifier, try token(Self.next, kid: "new")), "no waiting a minute after a rotation")
        #expect(cache.fetchCount == 2)
        #expect(!accepts(verifier, try token(first, kid: "old")), "the retired key is gone")
    }

    @Test func madeUpKidsFetchAtMostTheBurstThenOneEveryRefill() throws {
        let (verifier, cache) = provider(Published(TestKeys.jwks([try first.jwk(kid: "k1")])))
        for index in 0..<100 {
            #expect(!accepts(verifier, try token(first, kid: "made-up-\(index)")))
        }
        #expect(cache.fetchCount == JWKSCache.refetchBurst)
        time.advance(JWKSCache.refillSeconds)
        #expect(!accepts(verifier, try token(first, kid: "made-up-again")))
        #expect(!accepts(verifier, try token(first, kid: "and-again")))
        #expect(cache.fetchCount == JWKSCache.refetchBurst + 1)
        #expect(accepts(verifier, try token(first, kid: "k1")), "known keys verify without any fetch")
    }
}
