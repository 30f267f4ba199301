import Auth0Web
import OpenSSLCrypto
import TestSupport
import Testing
import Web

/// Issue 41, item 2: `private_key_jwt` as the worker reads its key and proves itself with it.
@Suite struct ClientAssertionTests {
    private static let key = TestKeys.shared.key
    private static let keyPEM = (try? key.pem()) ?? ""

    private func settings(_ changes: [String: String?]) throws -> RelyingPartySettings {
        try RelyingPartySettings(environment: TestSettings.environment(changes))
    }

    private func problems(_ changes: [String: String?]) -> [String] { TestSettings.problems(changes) }

    @Test func aKeyIsAllItTakesAndNoSecretIsAsked() throws {
        let settings = try settings(["CLIENT_ASSERTION_KEY": Self.keyPEM, "AUTH0_CLIENT_SECRET": nil])
        #expect(settings.client.authentication == .privateKeyJWT && settings.client.secret.isEmpty)
        #expect(settings.client.assertionAlgorithm == .rs256)
        // ID tokens signed with the secret (HS256) still need it.
        #expect(
            problems(["CLIENT_ASSERTION_KEY": Self.keyPEM, "AUTH0_CLIENT_SECRET": nil, "ID_TOKEN_SIGNING_ALG": "HS256"])
                == ["AUTH0_CLIENT_SECRET: missing (or set AUTH0_CLIENT_SECRET_FILE)"])
    }

    @Test func eachMistakeIsOneLineNamingTheSetting() throws {
        #expect(
            problems(["CLIENT_AUTH_METHOD": "private_key_jwt"]).first?.hasPrefix(
                "CLIENT_AUTH_METHOD: private_key_jwt needs CLIENT_ASSERTION_KEY") == true)
        #expect(
            problems(["CLIENT_AUTH_METHOD": "client_secret_post", "CLIENT_ASSERTION_KEY": Self.keyPEM])
                == ["CLIENT_ASSERTION_KEY: given, but CLIENT_AUTH_METHOD is client_secret_post; leave one of them out"])
        #expect(
            problems(["CLIENT_ASSERTION_KEY": Self.keyPEM, "CLIENT_ASSERTION_ALG": "HS256"]).first?.hasPrefix(
                "CLIENT_ASSERTION_ALG: \"HS256\" must be one of RS256, RS384, RS512, PS256, PS384, PS512") == true)
        let ecKey = try ECPrivateKey().pem()
        #expect(
            problems(["CLIENT_ASSERTION_KEY": ecKey]).first?.hasPrefix(
                "CLIENT_ASSERTION_KEY: PEM block 1 is not an RSA private key") == true)
        let short = try RSAPrivateKey(generatingBits: 1024).pem()
        #expect(problems(["CLIENT_ASSERTION_KEY": short]).first?.contains("2048 bits or more") == true)
        #expect(problems(["CLIENT_AUTH_METHOD": "tls_client_auth"]).first?.contains("private_key_jwt") == true)
    }

    /// What the token endpoint receives: the assertion, its type and the client id, no secret;
    /// the assertion verifies with the public key and says what Auth0 asks, each one its own.
    @Test(arguments: [(true, "https://tenant.example.com/"), (false, "https://tenant.example.com/oauth/token")])
    func theAssertionSaysWhoWhereAndOnce(auth0: Bool, audience: String) throws {
        var changes: [String: String?] = ["CLIENT_ASSERTION_KEY": Self.keyPEM, "CLIENT_ASSERTION_ALG": "PS256"]
        if !auth0 { changes["OIDC_PROVIDER"] = "generic" }
        let settings = try settings(changes)
        let tenant = ScriptedHTTPClient.json(403, #"{"error":"invalid_grant"}"#)
        let time = ManualClock()
        let client = try TokenClient(
            settings: settings, endpoints: TestSettings.endpoints, http: tenant, clock: time.clock)
        _ = try? client.refresh("RT1")
        _ = try? client.refresh("RT2")
        let sent = try tenant.sent.map { try FormData(urlEncoded: $0.body) }
        #expect(
            sent.count == 2 && sent.allSatisfy { $0["client_secret"] == nil && $0["client_id"] == settings.client.id })
        #expect(sent[0]["client_assertion_type"] == "urn:ietf:params:oauth:client-assertion-type:jwt-bearer")
        #expect(tenant.sent.allSatisfy { request in !request.headers.contains { $0.name == "Authorization" } })
        let tokens = sent.compactMap { $0["client_assertion"] }.compactMap(JWT.init)
        #expect(tokens.count == 2)
        let (modulus, exponent) = try Self.key.publicComponents()
        let publicKey = try RSAPublicKey(modulus: modulus, exponent: exponent)
        for token in tokens {
            #expect(token.header["alg"] == "PS256")
            #expect(publicKey.verify(signature: token.signature, message: token.signedPart, digest: .sha256, pss: true))
            #expect(
                token.claims["iss"]?.string == settings.client.id && token.claims["sub"]?.string == settings.client.id)
            #expect(token.audiences == [audience])
            #expect(token.claims["iat"] == .number(1_700_000_000) && token.claims["exp"] == .number(1_700_000_060))
        }
        #expect(tokens[0].claims["jti"] != tokens[1].claims["jti"], "each assertion is its own")
    }

    /// Issue 50, item 5: with the key's certificate, each assertion names it by its SHA-256 and
    /// SHA-1 thumbprints (as Microsoft Entra ID asks); each mistake in it is one line.
    @Test func aCertificateIsNamedByItsThumbprintsAndEachMistakeIsOneLine() throws {
        let certificate = try X509Certificate.selfSigned(for: Self.key, commonName: "test", days: 1)
        let other = try RSAPrivateKey(generatingBits: 2048)
        let otherCertificate = try X509Certificate.selfSigned(for: other, commonName: "other", days: 1)
        let settings = try settings([
            "CLIENT_ASSERTION_KEY": Self.keyPEM + (try other.pem()),
            "CLIENT_ASSERTION_CERTIFICATE": try otherCertificate.pem() + certificate.pem(),
        ])
        #expect(settings.client.assertionCertificates.map { $0?.der } == [certificate.der, otherCertificate.der])
        let tenant = ScriptedHTTPClient.json(403, #"{"error":"invalid_grant"}"#)
        let client = try TokenClient(
            settings: settings, endpoints: TestSettings.endpoints, http: tenant, clock: ManualClock().clock)
        _ = try? client.refresh("RT1")
        let sent = try #require(try tenant.sent.first.map { try FormData(urlEncoded: $0.body) })
        let assertion = try #require(sent["client_assertion"].flatMap(JWT.init))
        #expect(assertion.header["x5t#S256"]?.string == Base64URL.encode(SHA256.hash(certificate.der)))
        #expect(assertion.header["x5t"]?.string?.count == 27, "a SHA-1 thumbprint is 20 bytes")

        let alone = ["CLIENT_ASSERTION_KEY": Self.keyPEM]
        #expect(
            problems(alone.merging(["CLIENT_ASSERTION_CERTIFICATE": try otherCertificate.pem()]) { $1 }) == [
                "CLIENT_ASSERTION_CERTIFICATE: certificate 1 is for none of CLIENT_ASSERTION_KEY's keys",
                "CLIENT_ASSERTION_CERTIFICATE: no certificate for CLIENT_ASSERTION_KEY's first key, the one that "
                    + "signs; make one with `metadata-demo new-client-key --certificate FILE`, or "
                    + "`openssl req -x509 -key KEY -subj /CN=NAME`",
            ])
        #expect(
            problems(alone.merging(["CLIENT_ASSERTION_CERTIFICATE": "not a certificate"]) { $1 }) == [
                "CLIENT_ASSERTION_CERTIFICATE: holds no PEM certificate (-----BEGIN CERTIFICATE-----)"
            ])
        #expect(
            problems(["CLIENT_ASSERTION_CERTIFICATE": try certificate.pem()]) == [
                "CLIENT_ASSERTION_CERTIFICATE: given without CLIENT_ASSERTION_KEY, whose keys it certifies"
            ])
    }

    @Test func anAlgorithmTheProviderDoesNotListStopsStartUp() throws {
        let listed = try TestSettings.discovered(["token_endpoint_auth_signing_alg_values_supported": .array(["RS256"])]
        )
        let ps256 = try settings(["CLIENT_ASSERTION_KEY": Self.keyPEM, "CLIENT_ASSERTION_ALG": "PS256"])
        #expect(
            ProviderFit.problems(ps256, listed) == [
                "CLIENT_ASSERTION_ALG: PS256 is not among the provider's token_endpoint_auth_signing_alg_values_supported "
                    + "(RS256)"
            ])
        let rs256 = try settings(["CLIENT_ASSERTION_KEY": Self.keyPEM])
        #expect(ProviderFit.problems(rs256, listed).isEmpty)
    }
}
