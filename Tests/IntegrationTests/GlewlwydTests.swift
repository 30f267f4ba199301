import Foundation
import TestSupport
import Testing
import Web

/// Issue 41, item 7: the product against Debian's Glewlwyd 2.7, an OpenID-Certified provider
/// nobody here wrote, installed by `scripts/ensure-deps test` and set up by
/// `Tests/Providers/glewlwyd_provider.py` as its documentation says (its own schema, then its
/// administration API). Its login page is a script-driven page of its own: the test does what
/// that page does through Glewlwyd's API (the password, the grant, "continue").
@Suite(.serialized) final class GlewlwydTests {
    let stack: Stack
    static let person = (username: "ada", password: "Ada-pass-1!")
    static let clientID = "metadata-demo"
    static let secret = "glewlwyd-client-secret-0123456789"

    init() throws { stack = try Stack(workers: 0) }
    deinit { stack.stop() }

    /// Starts Glewlwyd configured with `options`; its issuer.
    /// A free port can be taken by another test's server before Glewlwyd binds it: then it starts
    /// again on another (its log says "Failed to bind"), at most three times.
    /// Its logout news by back-channel (the default) or, with `frontChannel`, by Glewlwyd's
    /// end-session page loading the product's front-channel address (no back-channel then), on
    /// `localhost`: another site than the product's 127.0.0.1, as a provider is.
    func startGlewlwyd(_ options: [String] = [], frontChannel: Bool = false) throws -> String {
        let logout =
            frontChannel
            ? ["--frontchannel-logout-uri", stack.baseURL + "/frontchannel-logout", "--host", "localhost"]
            : ["--backchannel-logout-uri", stack.baseURL + "/backchannel-logout"]
        return try launchGlewlwyd(options + logout)
    }

    private func launchGlewlwyd(_ options: [String]) throws -> String {
        var ready: String?
        for _ in 0..<3 where ready == nil {
            let logged = ((try? stack.log("glewlwyd")) ?? "").utf8.count
            let port = try Stack.freePort()
            try stack.start(
                "glewlwyd", "/usr/bin/python3",
                [Stack.repoRoot + "/Tests/Providers/glewlwyd_provider.py", "--port", String(port)]
                    + ["--dir", stack.runDir + "/glewlwyd", "--redirect-uri", stack.baseURL + "/callback"]
                    + ["--logged-out-uri", stack.baseURL + "/logged-out", "--client-id", Self.clientID]
                    + ["--client-secret", Self.secret] + options)
            var portTaken = false
            _ = eventually(within: 60) {
                let log = String(decoding: ((try? stack.log("glewlwyd")) ?? "").utf8.dropFirst(logged), as: UTF8.self)
                ready = log.split(separator: "\n").first { $0.hasPrefix("ready ") }.map { String($0.dropFirst(6)) }
                portTaken = log.contains("Failed to bind to port \(port)")
                return ready != nil || portTaken
            }
            if portTaken { _ = stack.signal("glewlwyd", SIGTERM) }
        }
        #expect(ready != nil, "\(stack.logForAMessage("glewlwyd").suffix(3000))")
        return try #require(ready)
    }

    /// The query of `url`, decoded.
    static func query(of url: String) throws -> FormData {
        try FormData(urlEncoded: Array((url.split(separator: "?", maxSplits: 1).dropFirst().first ?? "").utf8))
    }

    func startWorker(issuer: String, _ extra: [String: String] = [:]) throws {
        try stack.startWorker(issuer: issuer, clientID: Self.clientID, secret: Self.secret, extra)
    }

    /// The person logs in from the product's `/login`: Glewlwyd sends the browser to its login
    /// page, whose script signs them in, grants the application its scopes and continues.
    func logIn(_ browser: TestClient, issuer: String) throws -> TestClient.Answer {
        let authorize = try browser.startLogin(stack)
        let page = try browser.get(authorize)
        let loginPage = try #require(page.header("location"), "\(page.status) \(page.body)")
        let query = try Self.query(of: loginPage)
        let resume = try #require(query["callback_url"], "\(loginPage)")
        let api = try signIn(browser, issuer: issuer, Self.person.username, Self.person.password)
        let granted = try browser.send(
            "PUT", api + "/auth/grant/" + Self.clientID, headers: [("Content-Type", "application/json")],
            body: Array(#"{"scope":"openid email profile offline_access"}"#.utf8))
        #expect(granted.status == 200)
        let back = try browser.get(resume + "&g_continue")
        let callback = try #require(back.header("location"), "\(back.status) \(back.body)")
        #expect(callback.hasPrefix(stack.baseURL + "/callback?"), "\(callback)")
        return try browser.get(callback)
    }

    @Test func aPersonLogsInRenewsAndLogsOutWithTheClientSecret() throws {
        let issuer = try startGlewlwyd()
        try startWorker(issuer: issuer, ["SESSION_REVALIDATE_SECONDS": "1"])
        let browser = TestClient()
        let landed = try logIn(browser, issuer: issuer)
        #expect(landed.status == 302 && landed.header("location") == "/", "\(landed.status) \(landed.body.prefix(400))")
        #expect(try browser.get(stack.baseURL + "/").body.contains("ada@example.org"))
        // Revalidation renews with Glewlwyd's refresh token (rolled); the person stays in.
        #expect(
            eventually(within: 10) {
                _ = try? browser.get(stack.baseURL + "/")
                return (try? stack.log("glewlwyd"))?.contains("Refresh token generated") == true
            }, "\(stack.logForAMessage("glewlwyd").suffix(2000))")
        #expect(try browser.get(stack.baseURL + "/").body.contains("ada@example.org"))
        let csrf = try #require(TestClient.hiddenField("csrf", in: try browser.get(stack.baseURL + "/").body))
        let out = try browser.post(
            stack.baseURL + "/logout", form: [("csrf", csrf)], headers: [("Origin", stack.baseURL)])
        let endSession = try #require(out.header("location"))
        #expect(
            endSession.hasPrefix(issuer + "/end_session?") && endSession.contains("id_token_hint="), "\(endSession)")
    }

    /// Each signing algorithm Glewlwyd's plugin offers for ID tokens, the worker told as README says.
    @Test(arguments: ["RS256", "PS256", "PS512", "ES256", "ES512", "EdDSA"]) func eachSigningAlgorithm(alg: String)
        throws
    {
        let issuer = try startGlewlwyd(["--alg", alg])
        try startWorker(issuer: issuer, ["ID_TOKEN_SIGNING_ALG": alg])
        let landed = try logIn(TestClient(), issuer: issuer)
        #expect(landed.status == 302 && landed.header("location") == "/", "\(alg): \(landed.body.prefix(400))")
    }

    /// No shared secret, and the request pushed first: `private_key_jwt` at its token and PAR
    /// endpoints (Glewlwyd checks the assertion with the client's registered public key); `signed`,
    /// the pushed request a request object (JAR, issue 50 item 4) Glewlwyd checks with that key.
    @Test(arguments: [false, true]) func privateKeyJWTWithPushedRequests(signed: Bool) throws {
        let issuer = try startWithPushedRequestsByKey(["REQUEST_OBJECTS": signed ? "on" : "off"])
        let browser = TestClient()
        #expect(try browser.startLogin(stack).contains("request_uri=urn"), "the request was pushed")
        let landed = try logIn(browser, issuer: issuer)
        #expect(
            landed.status == 302 && landed.header("location") == "/",
            "\(landed.body.prefix(400)) \(stack.logForAMessage("glewlwyd").suffix(1500))")
    }

    /// Glewlwyd checks a request object's signature: one signed by a key it does not hold for the
    /// client (`REQUEST_OBJECT_KEY`, apart from the registered client key) is refused at the push,
    /// and the person reads that the login could not start.
    @Test func aRequestObjectSignedByAnotherKeyIsRefused() throws {
        let other = try PrivateKeyJWTTests.newKeyPair(stack.runDir)
        _ = try startWithPushedRequestsByKey(["REQUEST_OBJECTS": "on", "REQUEST_OBJECT_KEY": other.privatePEM])
        let refused = try TestClient().get(stack.baseURL + "/login")
        #expect(refused.status == 502, "\(refused.status) \(stack.logForAMessage("glewlwyd").suffix(1500))")
        #expect(try stack.log("worker").contains("reason=authorization_push_failed"))
    }

    /// Glewlwyd with PAR and a client registered with a new key's public half, and the worker
    /// proving itself with that key (private_key_jwt, requests pushed, request objects RS256),
    /// with `extra` settings: Glewlwyd's issuer.
    private func startWithPushedRequestsByKey(_ extra: [String: String]) throws -> String {
        let keys = try PrivateKeyJWTTests.newKeyPair(stack.runDir)
        let publicFile = stack.runDir + "/glewlwyd-client.pem"
        try keys.publicPEM.write(toFile: publicFile, atomically: true, encoding: .utf8)
        let issuer = try startGlewlwyd(["--client-key", publicFile, "--par"])
        let settings = [
            "AUTH0_CLIENT_SECRET": "", "CLIENT_ASSERTION_KEY": keys.privatePEM,
            "PUSHED_AUTHORIZATION_REQUESTS": "required", "REQUEST_OBJECT_ALG": "RS256",
        ]
        try startWorker(issuer: issuer, settings.merging(extra) { $1 })
        return issuer
    }

    /// `SECURITY_PROFILE=fapi2` against Glewlwyd with PAR, DPoP, the client's key and ES256: all
    /// of it holds but the response's `iss` (RFC 9207, after its 2.7), and start-up says that alone.
    @Test func fapi2LacksOnlyTheResponsesIssuer() throws {
        let keys = try PrivateKeyJWTTests.newKeyPair(stack.runDir)
        let publicFile = stack.runDir + "/glewlwyd-fapi.pem"
        try keys.publicPEM.write(toFile: publicFile, atomically: true, encoding: .utf8)
        let issuer = try startGlewlwyd(["--client-key", publicFile, "--par", "--dpop", "--alg", "ES256"])
        let settings = stack.devEnvironment.merging(
            Stack.providerSettings(issuer: issuer, clientID: Self.clientID, secret: "")
        ) { $1 }.merging([
            "SECURITY_PROFILE": "fapi2", "CLIENT_ASSERTION_KEY": keys.privatePEM, "ID_TOKEN_SIGNING_ALG": "ES256",
            "DPOP_KEY": try Stack.check(Stack.binDir + "/metadata-demo", ["new-dpop-key"]),
        ]) { $1 }
        let checked = try Stack.run(Stack.binDir + "/metadata-demo", ["check-config"], environment: settings)
        let lines = checked.output.split(separator: "\n").filter { $0.hasPrefix("metadata-demo: ") }
        #expect(checked.status == 1 && lines.count == 1, "\(checked.output)")
        #expect(lines.first?.contains("SECURITY_PROFILE: fapi2 needs the provider to name itself") == true)
    }

    /// DPoP where Glewlwyd's draft and RFC 9449 meet: the worker's proofs at the token endpoint,
    /// and, when Glewlwyd makes nonces mandatory, the request sent again with the one it gives.
    @Test(arguments: [false, true]) func dpopBoundTokens(nonce: Bool) throws {
        let issuer = try startGlewlwyd(nonce ? ["--dpop", "--dpop-nonce", "--log-level", "DEBUG"] : ["--dpop"])
        let key = try Stack.check(Stack.binDir + "/metadata-demo", ["new-dpop-key"])
        try startWorker(issuer: issuer, ["DPOP_KEY": key, "DPOP": "required"])
        let browser = TestClient()
        let landed = try logIn(browser, issuer: issuer)
        #expect(landed.status == 302 && landed.header("location") == "/", "\(landed.body.prefix(600))")
        #expect(try browser.get(stack.baseURL + "/").body.contains("ada@example.org"))
        if nonce {
            // It refused the first proof for want of its nonce; the worker sent the request again.
            #expect(try stack.log("glewlwyd").contains("oidc_verify_dpop_proof - Invalid nonce"))
        }
    }

    /// An administrator's session on Glewlwyd's API (its package's `admin`).
    private func admin(_ issuer: String) throws -> (client: TestClient, api: String) {
        let client = TestClient()
        return (client, try signIn(client, issuer: issuer, "admin", "password"))
    }

    /// `username` signed in to Glewlwyd with its password through its API, in `client`'s cookies;
    /// that API's address.
    private func signIn(_ client: TestClient, issuer: String, _ username: String, _ password: String) throws
        -> String
    {
        let api = String(issuer.dropLast("/oidc".count))
        let body: JSONValue = .object(["username": .string(username), "password": .string(password)])
        let signedIn = try client.send(
            "POST", api + "/auth/", headers: [("Content-Type", "application/json")], body: body.serialized())
        #expect(signedIn.status == 200)
        return api
    }

    /// Glewlwyd's signing key replaced by its administrator between two logins: the worker,
    /// meeting a `kid` it has not seen, fetches the keys again and the second login stands.
    @Test func aLoginAfterTheProviderRotatedItsKeyStands() throws {
        let issuer = try startGlewlwyd()
        try startWorker(issuer: issuer)
        #expect(try logIn(TestClient(), issuer: issuer).header("location") == "/")
        let (admin, api) = try admin(issuer)
        let plugin = try #require(JSONValue.parse(Array(try admin.get(api + "/mod/plugin/oidc").body.utf8)))
        guard case .object(var fields) = plugin, case .object(var parameters)? = fields["parameters"] else {
            throw StackError("no plugin parameters")
        }
        let keyFile = stack.runDir + "/glewlwyd-rotated.pem"
        _ = try Stack.check(
            "/usr/bin/openssl", ["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", keyFile])
        parameters["key"] = .string(try String(contentsOfFile: keyFile, encoding: .utf8))
        parameters["cert"] = .string(try Stack.check("/usr/bin/openssl", ["pkey", "-in", keyFile, "-pubout"]))
        fields["parameters"] = .object(parameters)
        let updated = try admin.send(
            "PUT", api + "/mod/plugin/oidc", headers: [("Content-Type", "application/json")],
            body: JSONValue.object(fields).serialized())
        #expect(updated.status == 200, "\(updated.body)")
        // Its plugin takes a new key when it starts again (its API's disable, then enable).
        for action in ["disable", "enable"] {
            #expect(try admin.send("PUT", api + "/mod/plugin/oidc/" + action).status == 200)
        }
        let again = try logIn(TestClient(), issuer: issuer)
        #expect(again.status == 302 && again.header("location") == "/", "\(again.body.prefix(400))")
        #expect(try stack.metric("metadata_demo_jwks_fetches") >= 2, "the keys fetched again")
    }

    /// Glewlwyd ends its session (the person confirms the end at its page, which calls its API):
    /// it sends a logout token to the product's back-channel logout address, and the product's
    /// other login within that session is refused at once.
    @Test func theProvidersBackChannelLogoutEndsTheOtherLogin() throws {
        let issuer = try startGlewlwyd()
        try startWorker(issuer: issuer)
        let (laptop, tab) = try twoLoginsOfOneSession(issuer)
        #expect(try tab.get(stack.baseURL + "/").body.contains("ada@example.org"))
        let sid = try logOutOfTheProduct(laptop)
        let ended = try laptop.send("DELETE", issuer + "/session/" + sid + "/")
        #expect(ended.status == 200, "\(ended.status) \(ended.body)")
        #expect(
            eventually(within: 5) {
                (try? tab.get(stack.baseURL + "/").body.contains("ada@example.org")) == false
            }, "\(stack.logForAMessage("worker").suffix(1500)) \(stack.logForAMessage("glewlwyd").suffix(1500))")
        #expect(try stack.log("worker").contains("back-channel logout"))
    }

    /// The product's two logins within one Glewlwyd session: a laptop's, and a tab's beside it.
    func twoLoginsOfOneSession(_ issuer: String) throws -> (laptop: TestClient, tab: TestClient) {
        let laptop = TestClient()
        #expect(try logIn(laptop, issuer: issuer).header("location") == "/")
        let tab = laptop.copy()
        tab.forget("mds")
        #expect(try logIn(tab, issuer: issuer).header("location") == "/")
        return (laptop, tab)
    }

    /// `browser` logs out of the product, which sends it to Glewlwyd's end-session prompt: the
    /// `sid` of the Glewlwyd session that prompt names.
    func logOutOfTheProduct(_ browser: TestClient) throws -> String {
        let csrf = try #require(TestClient.hiddenField("csrf", in: try browser.get(stack.baseURL + "/").body))
        let out = try browser.post(
            stack.baseURL + "/logout", form: [("csrf", csrf)], headers: [("Origin", stack.baseURL)])
        let endSession = try #require(out.header("location"))
        let prompt = try #require(try browser.get(endSession).header("location"), "the end-session prompt")
        let sid = try Self.query(of: prompt)["sid"]
        return try #require(sid, "\(prompt)")
    }
}
