import Auth0Web
import OpenSSLCrypto
import TestSupport
import Testing
import Web

/// Issue 41, item 4: the proofs the workers send (RFC 9449) and how they answer a server's nonce.
@Suite struct DPoPProofTests {
    private static let key: ECPrivateKey? = try? ECPrivateKey()

    /// Decodes a proof and checks its signature with the public key in its own header.
    private func open(_ proof: String) throws -> (header: JSONValue, claims: JSONValue) {
        let jwt = try #require(JWT(proof))
        let jwk = jwt.header["jwk"]
        let x = try #require(jwk?["x"]?.string.flatMap(Base64URL.decode))
        let y = try #require(jwk?["y"]?.string.flatMap(Base64URL.decode))
        let key = try SignaturePublicKey(curve: .p256, x: x, y: y)
        #expect(key.verify(signature: jwt.signature, message: jwt.signedPart, digest: .sha256))
        return (jwt.header, jwt.claims)
    }

    private func header(_ request: HTTPClientRequest, _ name: String) -> String? {
        request.headers.first { $0.name.lowercased() == name }?.value
    }

    @Test func eachRequestCarriesItsOwnProofAndAnAccessTokenIsPresentedAsDPoP() throws {
        let tenant = ScriptedHTTPClient.json(200, "{}")
        let dpop = try DPoP(key: try #require(Self.key), http: tenant, clock: ManualClock().clock)
        _ = try dpop.send(
            HTTPClientRequest(
                method: "GET", url: "https://tenant.example.com/api/v2/users/x?fields=a#f",
                headers: [("Authorization", "Bearer AT")]))
        _ = try dpop.send(HTTPClientRequest(method: "POST", url: "https://tenant.example.com/oauth/token"))
        let (first, second) = (tenant.sent[0], tenant.sent[1])
        #expect(header(first, "authorization") == "DPoP AT")
        let resource = try open(try #require(header(first, "dpop")))
        #expect(resource.header["typ"] == "dpop+jwt" && resource.header["alg"] == "ES256")
        #expect(resource.header["jwk"]?["d"] == nil, "the public key only")
        #expect(
            resource.claims["htm"] == "GET" && resource.claims["htu"] == "https://tenant.example.com/api/v2/users/x")
        #expect(resource.claims["ath"]?.string == Base64URL.encode(SHA256.hash(Array("AT".utf8))))
        #expect(resource.claims["iat"] == .number(1_700_000_000) && resource.claims["nonce"] == nil)
        let token = try open(try #require(header(second, "dpop")))
        #expect(token.claims["htm"] == "POST" && token.claims["ath"] == nil)
        #expect(token.claims["jti"] != resource.claims["jti"], "never the same proof twice")
    }

    /// `use_dpop_nonce` (400 from the token endpoint, a 401 challenge from an API): the same
    /// request again, once, with the nonce; later proofs to that server carry the newest.
    @Test func aNonceAskedForIsSentAndKept() throws {
        let tenant = ScriptedHTTPClient.numbered { count, _ in
            switch count {
            case 1:
                return HTTPClientResponse(
                    status: 400, headers: [("dpop-nonce", "n1")], body: Array(#"{"error":"use_dpop_nonce"}"#.utf8))
            case 3:
                return HTTPClientResponse(
                    status: 401,
                    headers: [("www-authenticate", #"DPoP error="use_dpop_nonce""#), ("dpop-nonce", "n2")])
            default:
                return HTTPClientResponse(status: 200)
            }
        }
        let dpop = try DPoP(key: try #require(Self.key), http: tenant, clock: ManualClock().clock)
        #expect(
            try dpop.send(HTTPClientRequest(method: "POST", url: "https://tenant.example.com/oauth/token")).status
                == 200)
        #expect(
            try dpop.send(
                HTTPClientRequest(
                    method: "GET", url: "https://tenant.example.com/userinfo", headers: [("Authorization", "Bearer AT")]
                )
            ).status == 200)
        let nonces = try tenant.sent.map { try open(try #require(header($0, "dpop"))).claims["nonce"]?.string }
        #expect(nonces == [nil, "n1", "n1", "n2"])
    }

    /// A provider that answers a proven request with a bearer token did not bind it: the login
    /// does not stand on a token every call would then present wrongly.
    @Test func aBearerAnswerToAProvenRequestIsRefused() throws {
        let tenant = ScriptedHTTPClient.json(
            200, #"{"access_token":"AT","id_token":"ID","token_type":"Bearer","expires_in":60}"#)
        let dpop = try DPoP(key: try #require(Self.key), http: tenant, clock: ManualClock().clock)
        let client = try TokenClient(
            settings: TestSettings.auth0, endpoints: TestSettings.endpoints, http: tenant, binding: dpop)
        #expect(throws: AuthError(.badTokenResponse, "token_type Bearer, not DPoP")) {
            try client.exchange(code: "C", codeVerifier: "V")
        }
        // A mini app's API token is asked for without a proof, and is a bearer token.
        let api = try client.refresh("RT", audience: "https://api.example.com/", scope: "read")
        #expect(api.accessToken == "AT")
        #expect(tenant.sent.last.map { header($0, "dpop") } == .some(nil))
    }

    /// Issue 50, item 7: with tokens bound, the authorization request binds the code to the same
    /// key (`dpop_jkt`, RFC 9449 §10), pushed or in the URL; without DPoP it names no key.
    @Test func theAuthorizationRequestNamesTheKeyOnlyWhenTokensAreBound() throws {
        let key = try #require(Self.key)
        let listed = try TestSettings.discovered(["dpop_signing_alg_values_supported": .array(["ES256"])])
        let bound = try RelyingPartySettings(environment: TestSettings.environment(["DPOP_KEY": try key.pem()]))
        let transaction = LoginTransaction.begin(returnTo: "/")
        let parameters = try TenantLinks(settings: bound, endpoints: listed).authorizationParameters(transaction)
        #expect(parameters.filter { $0.0 == "dpop_jkt" }.map(\.1) == [try #require(JWKThumbprint.p256(key))])
        let unlisted = try TenantLinks(settings: bound, endpoints: try TestSettings.discovered())
        #expect(!unlisted.authorize(transaction).contains("dpop_jkt"), "the provider does not take DPoP")
        #expect(
            !(try TenantLinks(settings: TestSettings.auth0, endpoints: listed).authorize(transaction).contains(
                "dpop_jkt")))
    }

    @Test func settingsAndTheProviderMustAgree() throws {
        let pem = try #require(Self.key).pem()
        let listed = try TestSettings.discovered(["dpop_signing_alg_values_supported": .array(["ES256"])])
        let auto = try RelyingPartySettings(environment: TestSettings.environment(["DPOP_KEY": pem]))
        #expect(DPoP.isUsed(auto.binding.dpop, key: auto.binding.dpopKey, listed))
        #expect(
            !DPoP.isUsed(auto.binding.dpop, key: auto.binding.dpopKey, try TestSettings.discovered()),
            "the provider lists none")
        let noKey = try RelyingPartySettings(environment: TestSettings.environment(["DPOP": "required"]))
        #expect(DPoP.problems(noKey.binding.dpop, key: noKey.binding.dpopKey, listed).count == 1)
        #expect(throws: SettingsProblems.self) {
            try RelyingPartySettings(environment: TestSettings.environment(["DPOP_KEY": "not a key"]))
        }
    }
}
