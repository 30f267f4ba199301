import Foundation
import TestSupport
import Testing
import Web

/// The product against a provider built on PyPI's pyop (SUNET's OpenID Connect provider library),
/// served by `Tests/Providers/pyop_provider.py`: an issuer with a path and no trailing slash
/// (`/realms/demo`, as Keycloak has), ID tokens that name the person by `sub` alone (name and
/// email only from UserInfo), `client_secret_basic` required, `offline_access` listed, and
/// signing keys that rotate.
@Suite(.serialized) final class PathIssuerProviderTests {
    static let clientID = "metadata-demo-web"
    // pyop reads Basic credentials as URL-safe base64: a pair whose standard base64 has no + or /
    // reads the same either way.
    static let clientSecret = "secret-0"
    let stack: Stack
    let issuer: String

    init() throws {
        stack = try Stack(workers: 0)
        let callback = stack.baseURL + "/callback"
        let port = try stack.startProvider("pyop") {
            [
                Stack.repoRoot + "/Tests/Providers/pyop_provider.py", "--port", String($0), "--issuer-path",
                "/realms/demo", "--client-id", Self.clientID, "--client-secret", Self.clientSecret,
                "--redirect-uri", callback,
            ]
        }
        issuer = "http://127.0.0.1:\(port)/realms/demo"
        try stack.startWorker(issuer: issuer, clientID: Self.clientID, secret: Self.clientSecret)
    }

    deinit { stack.stop() }

    /// Logs in as `user` on the provider's form; returns the home page.
    private func logIn(as user: String) throws -> TestClient.Answer {
        let browser = TestClient()
        let landing = try browser.logIn(stack, atProviderWith: [("user", user)])
        #expect(landing.status == 302, "\(landing.body) \(stack.logForAMessage("worker"))")
        return try browser.get(stack.baseURL + "/")
    }

    @Test func aPersonLogsInWithNameAndEmailFromUserInfo() throws {
        let authorize = try TestClient().startLogin(stack)
        #expect(authorize.hasPrefix(issuer + "/authorize?"))
        // It lists offline_access: asked for, with the consent OpenID Connect Core §11 requires.
        #expect(authorize.contains("scope=openid%20profile%20email%20offline_access&"))
        #expect(authorize.hasSuffix("&prompt=consent"))
        let home = try logIn(as: "ada")
        #expect(home.status == 200)
        #expect(home.body.contains("Ada"))
        #expect(home.body.contains("Email: ada@example.org"))
        // pyop writes each log line after its answer: waited for, not read at once.
        #expect(eventually { (try? stack.log("pyop"))?.contains("GET /realms/demo/userinfo 200") == true })
        #expect(eventually { (try? stack.log("pyop"))?.contains("POST /realms/demo/token 200") == true })
    }

    /// `check-config` proves the settings against the provider as start-up would: discovery of an
    /// issuer with a path (whose document must name it exactly: `rp-discovery-issuer-not-matching-config`)
    /// and the client's credentials by `client_secret_basic`.
    @Test func checkConfigProvesTheSettingsOrSaysWhich() throws {
        let settings = Stack.providerSettings(issuer: issuer, clientID: Self.clientID, secret: Self.clientSecret)
        func checkConfig(_ changes: [String: String] = [:]) throws -> (status: Int32, output: String) {
            let environment = stack.devEnvironment.merging(settings) { $1 }.merging(changes) { $1 }
            return try Stack.run(Stack.binDir + "/metadata-demo", ["check-config"], environment: environment)
        }
        let good = try checkConfig()
        #expect(good.status == 0, "\(good.output)")
        #expect(good.output.contains("client credentials accepted"))
        let wrongSecret = try checkConfig(["AUTH0_CLIENT_SECRET": "secret-1"])
        #expect(wrongSecret.status == 1)
        #expect(wrongSecret.output.contains("AUTH0_CLIENT_SECRET: the tenant refused the application's credentials"))
        #expect(try TestClient().post(issuer + "/misbehave", form: [("mode", "discovery-issuer")]).status == 200)
        let renamed = try checkConfig()
        #expect(renamed.status == 1)
        #expect(renamed.output.contains("ISSUER_BASE_URL: the tenant calls itself \(issuer)/, not \(issuer)"))
        // Issue 41: a provider that answers a made-up refresh token with 400 invalid_request
        // (not invalid_grant) had check-config blame a correct client id.
        #expect(try TestClient().post(issuer + "/misbehave", form: [("mode", "refresh-invalid-request")]).status == 200)
        let ownWay = try checkConfig()
        #expect(ownWay.status == 0, "\(ownWay.output)")
        #expect(!ownWay.output.contains("AUTH0_CLIENT_ID"))
    }

    /// Revalidation with a provider that has no metadata: its refresh token is the check. Renewed,
    /// the session goes on; refused (the provider ended it), the person is logged out here too.
    @Test func aDueSessionIsCheckedWithTheRefreshToken() throws {
        _ = stack.signal("worker", SIGTERM)
        try stack.startWorker(
            issuer: issuer, clientID: Self.clientID, secret: Self.clientSecret, ["SESSION_REVALIDATE_SECONDS": "1"])
        let browser = TestClient()
        #expect(try browser.logIn(stack, atProviderWith: [("user", "ada")]).status == 302)
        func tokenCalls() throws -> Int {
            try stack.log("pyop").components(separatedBy: "POST /realms/demo/token 200").count - 1
        }
        #expect(eventually { (try? tokenCalls()) == 1 })
        usleep(2_200_000)  // due: more than the interval (whole seconds) since the last check
        #expect(try browser.get(stack.baseURL + "/").body.contains("Email: ada@example.org"))
        // pyop writes its log line after its answer: waited for, not read at once.
        #expect(eventually { (try? tokenCalls()) == 2 }, "the renewal that checked the session")
        #expect(try TestClient().post(issuer + "/misbehave", form: [("mode", "refresh-refused")]).status == 200)
        usleep(2_200_000)  // due: more than the interval (whole seconds) since the last check
        let ended = try browser.get(stack.baseURL + "/")
        #expect(!ended.body.contains("Email: ada@example.org"))
        #expect(!browser.cookies.keys.contains("mds"))
    }

    /// RP-Initiated Logout: the provider gets its ID token back as `id_token_hint`, ends its
    /// session and sends the browser back to the product's logged-out page.
    @Test func logoutReturnsThroughTheProviderWithTheIDTokenHint() throws {
        let browser = TestClient()
        #expect(try browser.logIn(stack, atProviderWith: [("user", "ada")]).status == 302)
        let home = try browser.get(stack.baseURL + "/")
        let csrf = try #require(TestClient.hiddenField("csrf", in: home.body))
        let logout = try browser.post(
            stack.baseURL + "/logout", form: [("csrf", csrf)], headers: [("Origin", stack.baseURL)])
        let endSession = try #require(logout.header("location"))
        #expect(endSession.hasPrefix(issuer + "/logout?client_id=" + Self.clientID))
        #expect(endSession.contains("&id_token_hint=ey"))
        let back = try browser.get(endSession)
        #expect(back.status == 302)
        #expect(back.header("location")?.hasPrefix(stack.baseURL + "/logged-out") == true)  // pyop adds a bare "?"
        #expect(try browser.get(stack.baseURL + "/logged-out").body.contains("You’re logged out."))
    }

    /// The OpenID Foundation's RP tests that a provider's wrong answer must fail the login, each
    /// played by the real provider: the person gets the "Login not verified" page (400, with a way
    /// to log in again) and the log names the check that failed.
    @Test(arguments: [
        ("issuer-mismatch", "wrong_issuer"), ("aud", "wrong_audience"), ("nonce-invalid", "nonce_mismatch"),
        ("iat-missing", "missing_claim"), ("sub-missing", "missing_claim"), ("bad-sig", "bad_signature"),
        ("sig-none", "unsupported_algorithm"),
        ("userinfo-bad-sub", "userinfo_wrong_subject"),
    ])
    func aWrongAnswerFailsTheLogin(mode: String, reason: String) throws {
        let set = try TestClient().post(issuer + "/misbehave", form: [("mode", mode)])
        #expect(set.status == 200)
        let browser = TestClient()
        let callback = try browser.logIn(stack, atProviderWith: [("user", "mallory")])
        #expect(callback.status == 400)
        #expect(callback.body.contains("Login not verified"))
        #expect(callback.body.contains("Log in"))
        #expect(try stack.log("worker").contains("reason=\(reason)"), "\(stack.logForAMessage("worker"))")
        #expect(!browser.cookies.keys.contains("mds"))
    }
    /// `rp-id_token-kid-absent-multiple-jwks`, the second of the two answers the Foundation's
    /// test allows (issue 41, item 1): a token without `kid` against a set of two keys is checked
    /// with each key of its kind, and the one that signed it lets the person in (it was refused).
    @Test func aTokenWithoutKidAmongTwoKeysLogsInWithTheOneThatSignedIt() throws {
        #expect(try TestClient().post(issuer + "/misbehave", form: [("mode", "kid-absent-multiple")]).status == 200)
        let browser = TestClient()
        let callback = try browser.logIn(stack, atProviderWith: [("user", "ada")])
        #expect(callback.status == 302, "\(callback.status) \(callback.body.prefix(300))")
        #expect(try browser.get(stack.baseURL + "/").body.contains("Email: ada@example.org"))
    }

    /// `rp-key-rotation-op-sign-key`: the provider signs with a new key between two logins; the
    /// second login fetches the keys again at once and succeeds.
    @Test func aLoginAfterTheProviderRotatedItsKeySucceeds() throws {
        #expect(try logIn(as: "grace").body.contains("Email: grace@example.org"))
        let rotated = try TestClient().send("POST", issuer + "/rotate")
        #expect(rotated.body.contains("key-2"))
        #expect(try logIn(as: "edsger").body.contains("Email: edsger@example.org"))
        // pyop logs a request after answering it: its line may come a moment after the login.
        let fetches = { try self.stack.log("pyop").components(separatedBy: "GET /realms/demo/jwks 200").count - 1 }
        #expect(
            eventually { (try? fetches()) == 2 },
            "\((try? fetches()) ?? -1) fetches: one at the first login, one at the new key's")
    }
}
