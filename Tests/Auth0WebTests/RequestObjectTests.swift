import Auth0Web
import OpenSSLCrypto
import TestSupport
import Testing
import Web

/// Issue 50, item 4: signed request objects (JAR, RFC 9101), the FAPI 1.0 Advanced profile as
/// Auth0's compliance level `fapi1_adv_pkj_par` asks it, and `s_hash`.
@Suite struct RequestObjectTests {
    private static let key = TestKeys.shared.key
    private static let keyPEM = (try? key.pem()) ?? ""
    private let time = ManualClock()

    private func settings(_ changes: [String: String?]) throws -> RelyingPartySettings {
        try RelyingPartySettings(environment: TestSettings.environment(changes))
    }

    /// The request object the login's address (or its push) carries, checked with the public key.
    private func requestObject(_ token: String?, pss: Bool = true) throws -> JWT {
        let jwt = try #require(token.flatMap(JWT.init))
        let (modulus, exponent) = try Self.key.publicComponents()
        let publicKey = try RSAPublicKey(modulus: modulus, exponent: exponent)
        #expect(publicKey.verify(signature: jwt.signature, message: jwt.signedPart, digest: .sha256, pss: pss))
        return jwt
    }

    @Test func theLoginsParametersTravelSignedInsideTheObjectAlone() throws {
        let settings = try settings(["CLIENT_ASSERTION_KEY": Self.keyPEM, "REQUEST_OBJECTS": "on"])
        let mechanisms = try Auth0Mechanisms.testing(http: TenantScript(), clock: time.clock, settings: settings)
        let transaction = LoginTransaction.begin(returnTo: "/", pendingAffirmation: nil, stepUp: nil)
        let location = try mechanisms.loginStart.location(for: transaction, uiLocales: "zh")
        let query = try FormData(urlEncoded: Array((location.split(separator: "?").last ?? "").utf8))
        #expect(query.pairs.map(\.name) == ["client_id", "request"], "only the object and the client beside it")
        let jwt = try requestObject(query["request"])
        #expect(jwt.header["alg"] == "PS256" && jwt.header["typ"] == "oauth-authz-req+jwt")
        #expect(jwt.header["kid"] == nil, "Auth0 matches a kid against the ids it gave")
        let claims = jwt.claims
        #expect(claims["iss"]?.string == settings.client.id && claims["client_id"]?.string == settings.client.id)
        #expect(jwt.audiences == [TestSettings.endpoints.issuer])
        #expect(claims["state"]?.string == transaction.state && claims["nonce"]?.string == transaction.nonce)
        #expect(claims["code_challenge_method"] == "S256" && claims["response_type"] == "code")
        #expect(claims["ui_locales"] == "zh" && claims["redirect_uri"]?.string == settings.callbackURL)
        let (nbf, exp) = (claims["nbf"]?.number ?? 0, claims["exp"]?.number ?? 0)
        #expect(nbf == time.clock.now().rounded(.down) && exp - nbf == 300, "within Auth0's 60 minutes")
        #expect((claims["jti"]?.string?.utf8.count ?? 99) <= 64)
    }

    @Test func pushedTheObjectIsAllTheBodyCarriesBesideTheCredentials() throws {
        let settings = try settings([
            "CLIENT_ASSERTION_KEY": Self.keyPEM, "REQUEST_OBJECTS": "on", "REQUEST_OBJECT_ALG": "RS256",
            "PUSHED_AUTHORIZATION_REQUESTS": "required",
        ])
        let issuer = TestSettings.endpoints.issuer
        let endpoints = try TestSettings.discovered(
            issuer: issuer, ["pushed_authorization_request_endpoint": .string(issuer + "oauth/par")])
        let tenant = ScriptedHTTPClient.json(
            201, #"{"request_uri":"urn:ietf:params:oauth:request_uri:R1","expires_in":30}"#)
        let mechanisms = try Auth0Mechanisms.testing(
            http: tenant, clock: time.clock, settings: settings, endpoints: endpoints)
        let transaction = LoginTransaction.begin(returnTo: "/", pendingAffirmation: nil, stepUp: nil)
        let location = try mechanisms.loginStart.location(for: transaction)
        #expect(location.hasSuffix("request_uri=urn%3Aietf%3Aparams%3Aoauth%3Arequest_uri%3AR1"))
        let body = try FormData(urlEncoded: try #require(tenant.sent.first).body)
        #expect(
            Set(body.pairs.map(\.name)) == ["client_id", "client_assertion_type", "client_assertion", "request"],
            "\(body.pairs.map(\.name))")
        let jwt = try requestObject(body["request"], pss: false)
        #expect(jwt.header["alg"] == "RS256" && jwt.claims["state"]?.string == transaction.state)
    }

    /// A key of their own (`REQUEST_OBJECT_KEY`) signs request objects for an application that
    /// authenticates with its secret (Auth0 keeps JAR credentials apart from Private Key JWT
    /// ones); the client's key set publishes it, named for the algorithm it signs with.
    @Test func requestObjectsHaveAKeyOfTheirOwnBesideASecret() throws {
        let own = try RSAPrivateKey(generatingBits: 2048)
        let settings = try settings(["REQUEST_OBJECT_KEY": try own.pem(), "REQUEST_OBJECTS": "on"])
        #expect(settings.client.authentication == nil && settings.client.assertionKeys.isEmpty)
        let mechanisms = try Auth0Mechanisms.testing(http: TenantScript(), clock: time.clock, settings: settings)
        let transaction = LoginTransaction.begin(returnTo: "/", pendingAffirmation: nil, stepUp: nil)
        let location = try mechanisms.loginStart.location(for: transaction)
        let query = try FormData(urlEncoded: Array((location.split(separator: "?").last ?? "").utf8))
        let jwt = try #require(query["request"].flatMap(JWT.init))
        let (modulus, exponent) = try own.publicComponents()
        let publicKey = try RSAPublicKey(modulus: modulus, exponent: exponent)
        #expect(publicKey.verify(signature: jwt.signature, message: jwt.signedPart, digest: .sha256, pss: true))
        let published = try #require(ClientKeySet(settings: settings).document.flatMap(JSONValue.parse))
        let keys = published["keys"]?.array ?? []
        #expect(
            keys.count == 1 && keys.first?["alg"] == "PS256" && keys.first?["n"]?.string == Base64URL.encode(modulus))
        // One key signing assertions RS256 and request objects PS256 names no alg.
        let both = try self.settings(["CLIENT_ASSERTION_KEY": Self.keyPEM, "REQUEST_OBJECTS": "on"])
        let shared = try #require(ClientKeySet(settings: both).document.flatMap(JSONValue.parse))
        #expect(shared["keys"]?.array?.count == 1 && shared["keys"]?.array?.first?["alg"] == nil)
    }

    @Test func eachMistakeIsOneLineNamingTheSetting() {
        #expect(
            TestSettings.problems(["REQUEST_OBJECTS": "on"]).first?.hasPrefix(
                "REQUEST_OBJECTS: on signs each login's request with a key: give REQUEST_OBJECT_KEY") == true)
        #expect(TestSettings.problems(["REQUEST_OBJECTS": "yes"]) == ["REQUEST_OBJECTS: must be on or off"])
        #expect(
            TestSettings.problems(["CLIENT_ASSERTION_KEY": Self.keyPEM, "REQUEST_OBJECT_ALG": "ES256"]) == [
                "REQUEST_OBJECT_ALG: \"ES256\" must be one of RS256, RS384, RS512, PS256, PS384, PS512 "
                    + "(Auth0 takes RS256, RS384 and PS256)"
            ])
    }

    /// `SECURITY_PROFILE=fapi1-advanced` turns on what Auth0's `fapi1_adv_pkj_par` level requires,
    /// and says each setting that stands against it, one line each.
    @Test func fapi1AdvancedIsOneSettingAndSaysWhatStandsAgainstIt() throws {
        let settings = try settings([
            "SECURITY_PROFILE": "fapi1-advanced", "CLIENT_ASSERTION_KEY": Self.keyPEM, "CLIENT_ASSERTION_ALG": "PS256",
            "ID_TOKEN_SIGNING_ALG": "PS256", "AUTH0_CLIENT_SECRET": nil,
        ])
        #expect(settings.binding.requestObjects && settings.binding.requestObjectAlgorithm == .ps256)
        #expect(settings.binding.pushedAuthorization == .required && settings.binding.dpop == .auto)
        #expect(settings.client.authentication == .privateKeyJWT)
        let name = "SECURITY_PROFILE: fapi1-advanced"
        #expect(
            TestSettings.problems([
                "SECURITY_PROFILE": "fapi1-advanced", "CLIENT_ASSERTION_KEY": Self.keyPEM,
                "REQUEST_OBJECTS": "off", "REQUEST_OBJECT_ALG": "RS256", "PUSHED_AUTHORIZATION_REQUESTS": "off",
            ]) == [
                "\(name) takes ID tokens signed PS256 or ES256, not RS256 (ID_TOKEN_SIGNING_ALG, as the application is registered)",
                "\(name) pushes authorization requests: PUSHED_AUTHORIZATION_REQUESTS cannot be off",
                "\(name) signs every authorization request: REQUEST_OBJECTS cannot be off",
                "\(name) signs request objects PS256: REQUEST_OBJECT_ALG cannot be RS256",
                "\(name) signs client assertions PS256: CLIENT_ASSERTION_ALG cannot be RS256 (register the key for PS256)",
            ])
        #expect(
            TestSettings.problems(["SECURITY_PROFILE": "fapi1-advanced", "ID_TOKEN_SIGNING_ALG": "PS256"]).contains {
                $0.hasPrefix("\(name) authenticates with private_key_jwt")
            })
    }

    /// `s_hash` is the left half of the state's SHA-256 (for the *256 algorithms), base64url: a
    /// wrong one fails, a missing one only where it is required.
    @Test func theStateHashIsCheckedWhenSentAndRequiredUnderTheProfile() throws {
        let state = "state-123"
        let expected = Base64URL.encode(SHA256.hash(Array(state.utf8)).prefix(16))
        #expect(StateHash.of(state, algorithm: .ps256) == expected)
        #expect(
            StateHash.of(state, algorithm: .rs384) == Base64URL.encode(Digest.sha384.hash(Array(state.utf8)).prefix(24))
        )
        try StateHash.check(expected, state: state, algorithm: .ps256, required: true)
        try StateHash.check(nil, state: state, algorithm: .ps256, required: false)
        let missing = #expect(throws: AuthError.self) {
            try StateHash.check(nil, state: state, algorithm: .ps256, required: true)
        }
        let wrong = #expect(throws: AuthError.self) {
            try StateHash.check(
                StateHash.of("another", algorithm: .ps256), state: state, algorithm: .ps256, required: false)
        }
        #expect(missing?.code == .stateHashMismatch && wrong?.code == .stateHashMismatch)
    }
}
