import Foundation
import TestSupport
import Testing
import Web

/// Issue 58, item 8: the whole FAPI 2.0 login (`SECURITY_PROFILE=fapi2`) against a provider nobody
/// here wrote: PyPI's idpyoidc 5.0 (`Tests/Providers/idpyoidc_fapi2_provider.py`, which names in
/// its header the pieces of DPoP and RFC 9207 metadata it adds to idpyoidc with idpyoidc's own
/// functions). The request pushed by `private_key_jwt`, the login's tokens bound by DPoP, the
/// response naming its issuer; a response naming another is refused before any code exchange.
@Suite(.serialized) final class FAPI2LoginTests {
    static let clientID = "metadata-demo-fapi"
    let stack: Stack

    init() throws { stack = try Stack(workers: 0) }
    deinit { stack.stop() }

    /// idpyoidc's provider with the client's new key, and a worker under the FAPI 2.0 profile
    /// proving itself with that key and binding tokens to a DPoP key; the issuer.
    private func start(tamperingIssuer: Bool = false) throws -> String {
        let keys = try PrivateKeyJWTTests.newKeyPair(stack.runDir)
        let publicFile = stack.runDir + "/idpyoidc-client.pem"
        try keys.publicPEM.write(toFile: publicFile, atomically: true, encoding: .utf8)
        let port = try stack.startProvider("idpyoidc") {
            [
                Stack.repoRoot + "/Tests/Providers/idpyoidc_fapi2_provider.py", "--port", String($0),
                "--client-id", Self.clientID, "--client-key", publicFile, "--redirect-uri", stack.baseURL + "/callback",
            ] + (tamperingIssuer ? ["--tamper-iss"] : [])
        }
        let issuer = "http://127.0.0.1:\(port)"
        try stack.startWorker(
            issuer: issuer, clientID: Self.clientID, secret: "",
            [
                "SECURITY_PROFILE": "fapi2", "CLIENT_ASSERTION_KEY": keys.privatePEM, "ID_TOKEN_SIGNING_ALG": "PS256",
                "DPOP_KEY": try Stack.check(Stack.binDir + "/metadata-demo", ["new-dpop-key"]),
                "AUTH0_SCOPE": "openid profile email",
            ])
        return issuer
    }

    /// The login's steps through the provider (it signs its one person in with no form): the
    /// product's `/login`, the provider's `/authorize`, and the callback it sends the browser to.
    private func logIn(_ browser: TestClient, issuer: String) throws -> (callback: String, landed: TestClient.Answer) {
        let authorize = try browser.startLogin(stack)
        #expect(authorize.hasPrefix(issuer + "/authorize?"), "\(authorize)")
        // Pushed: the browser carries only the client id and the pushed request's reference.
        let query = try GlewlwydTests.query(of: authorize)
        #expect(query["request_uri"] != nil && query["code_challenge"] == nil, "\(authorize)")
        let answer = try browser.get(authorize)
        let callback = try #require(answer.header("location"), "\(answer.status) \(answer.body.prefix(500))")
        #expect(callback.hasPrefix(stack.baseURL + "/callback?"), "\(callback)")
        return (callback, try browser.get(callback))
    }

    @Test func theWholeLoginPushedByKeyBoundByDPoPAndNamingItsIssuer() throws {
        let issuer = try start()
        let browser = TestClient()
        let (callback, landed) = try logIn(browser, issuer: issuer)
        #expect(try GlewlwydTests.query(of: callback)["iss"] == issuer, "\(callback)")
        #expect(landed.status == 302 && landed.header("location") == "/", "\(landed.body.prefix(600))")
        let home = try browser.get(stack.baseURL + "/")
        #expect(home.body.contains("diana@example.org"), "\(home.body.prefix(800))")
        let log = try stack.log("idpyoidc")
        #expect(log.contains("\"POST /par HTTP/1.1\" 201"), "\(log.suffix(2000))")
        #expect(log.contains("\"POST /token HTTP/1.1\" 200"), "\(log.suffix(2000))")
        // The name and email came from UserInfo, with the token bound to the worker's DPoP key
        // (idpyoidc refuses a `DPoP` token without a proof by that key and its `ath`).
        #expect(log.contains("\"GET /userinfo HTTP/1.1\" 200"), "\(log.suffix(2000))")
        #expect(!log.contains("idpyoidc: refused"), "\(log.suffix(2000))")
    }

    /// A response naming another issuer (a mix-up's shape): "Login not verified", and the code is
    /// never sent to any token endpoint.
    @Test func aResponseNamingAnotherIssuerIsRefusedBeforeTheExchange() throws {
        let issuer = try start(tamperingIssuer: true)
        let browser = TestClient()
        let (callback, landed) = try logIn(browser, issuer: issuer)
        #expect(try GlewlwydTests.query(of: callback)["iss"] == "https://attacker.example/", "\(callback)")
        #expect(landed.status >= 400 && landed.body.contains("Login not verified"), "\(landed.body.prefix(600))")
        #expect(try !stack.log("idpyoidc").contains("POST /token"), "the code went to the token endpoint")
        #expect(try browser.get(stack.baseURL + "/me").status == 401)
    }
}
