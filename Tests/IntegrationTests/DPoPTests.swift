import Auth0Web
import CurlClient
import Foundation
import OpenSSLCrypto
import TestSupport
import Testing
import Web

/// Issue 41, item 4: DPoP (RFC 9449) end to end, against the dev tenant with DPoP allowed, and
/// nonces required when a test says so. Two workers share one key (`DPOP_KEY`, made by
/// `metadata-demo new-dpop-key`): the login's tokens come back bound to it, the Management API
/// takes them only with a proof by it, and either worker renews and saves with them; a mini
/// app's API token stays a bearer token, since the app holds no key.
@Suite(.serialized) struct DPoPTests {
    private func stack(nonce: Bool, miniApps: Bool = false) throws -> Stack {
        let folder = NSTemporaryDirectory() + "dpop-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let config = try TestTenant.writeVariant(
            into: folder, name: "tenant.json", pushing: false, dpop: (allowed: true, nonce: nonce))
        let key = try Stack.check(Stack.binDir + "/metadata-demo", ["new-dpop-key"])
        return try Stack(
            workers: 2, workerEnvironment: ["DPOP_KEY": key, "SESSION_REVALIDATE_SECONDS": "1"],
            tenantEnvironment: ["DEV_TENANT_CONFIG": config],
            miniAppsFile: miniApps ? Stack.exampleMiniApps : nil)
    }

    /// The bound grants the tenant made, of `grant` (a `grant_type`) or of any kind.
    private func boundGrants(_ stack: Stack, of grant: String? = nil) throws -> Int {
        try stack.log("dev-tenant").split(separator: "\n").filter { line in
            line.contains("bound=dpop") && (grant.map { line.contains("grant_type=" + $0) } ?? true)
        }.count
    }

    /// Issue 50, item 7: the login's code is bound to the workers' key too (`dpop_jkt`, RFC 9449
    /// §10), so a code taken on its way back through the browser is refused without a proof by
    /// that key; the worker's own exchange, with its proof, logs the person in.
    @Test func theCodeIsBoundToTheKeyAndIsWorthlessWithoutIt() throws {
        let stack = try stack(nonce: false)
        defer { stack.stop() }
        let pem = try #require(stack.workerEnvironment["DPOP_KEY"])
        let thumbprint = try #require(JWKThumbprint.p256(try ECPrivateKey(pem: pem)))
        let thief = TestClient()
        let authorize = try thief.startLogin(stack)
        let asked = try #require(URLComponents(string: authorize)?.queryItems)
        #expect(asked.first { $0.name == "dpop_jkt" }?.value == thumbprint, "\(authorize)")
        let callback = try thief.signIn(at: authorize, email: DemoUser.skippy.email, password: DemoUser.skippy.password)
        let code = try #require(URLComponents(string: callback)?.queryItems?.first { $0.name == "code" }?.value)
        let stolen = try CurlHTTPClient().send(
            HTTPClientRequest(
                method: "POST", url: stack.tenantURL + "/oauth/token",
                headers: [("Content-Type", "application/x-www-form-urlencoded")],
                body: Array(
                    PercentEncoding.formEncode([
                        ("grant_type", "authorization_code"), ("code", code),
                        ("redirect_uri", stack.baseURL + "/callback"),
                        ("client_id", try #require(stack.devEnvironment["AUTH0_CLIENT_ID"])),
                        ("client_secret", try #require(stack.devEnvironment["AUTH0_CLIENT_SECRET"])),
                        ("code_verifier", "not-known-to-a-thief"),
                    ]).utf8), timeoutSeconds: 5))
        #expect(stolen.status == 400 && JSONValue.parse(stolen.body)?["error"] == "invalid_dpop_proof")
        let browser = TestClient()
        let landed = try browser.logIn(stack, as: DemoUser.skippy)
        #expect(landed.status == 302 && landed.header("location") == "/", "\(landed.status) \(landed.body.prefix(300))")
    }

    @Test(arguments: [false, true]) func theLoginsTokensAreBoundAndUsedWithProofsOnEveryWorker(nonce: Bool) throws {
        let stack = try stack(nonce: nonce)
        defer { stack.stop() }
        let browser = TestClient()
        let landed = try browser.logIn(stack, as: DemoUser.skippy)
        #expect(landed.status == 302 && landed.header("location") == "/", "\(landed.status) \(landed.body.prefix(300))")
        let home = try browser.get(stack.baseURL + "/")
        #expect(home.body.contains("You’re logged in!") && !home.body.contains("could not be loaded"), "\(home.body)")
        // (Counted by kind: with revalidation every second, a slow machine may renew already.)
        #expect(try boundGrants(stack, of: "authorization_code") == 1, "the code exchange, bound")
        // The Management API took the bound token with its proof: save, then renew and read on
        // whichever worker (nginx alternates), each call with a new proof.
        let csrf = try #require(TestClient.hiddenField("csrf", in: home.body))
        let saved = try browser.post(
            stack.baseURL + "/affirmation",
            form: [("csrf", csrf), ("affirmation", "Bound and proven"), ("action", "save")],
            headers: [("Origin", stack.baseURL)])
        #expect(saved.status == 303, "\(saved.status) \(saved.body.prefix(400))")
        #expect(
            eventually(within: 10) {
                let page = (try? browser.get(stack.baseURL + "/").body) ?? ""
                return page.contains("Bound and proven") && ((try? boundGrants(stack)) ?? 0) >= 2
            }, "\(stack.logForAMessage("dev-tenant").suffix(2000))")
        let tenantLog = try stack.log("dev-tenant")
        #expect(!tenantLog.contains("dpop proof refused") && !tenantLog.contains("dpop-bound token refused"))
        if nonce {
            #expect(tenantLog.contains("status=400"), "the first proof without the nonce was refused, then sent again")
        }
        #expect(!tenantLog.contains("path=/api/v2/users/auth0%7C6489e0a1c2b3d4e5f6a7b8ca status=401") || nonce)
    }

    @Test func aMiniAppsAPITokenStaysABearerToken() throws {
        let stack = try stack(nonce: false, miniApps: true)
        defer { stack.stop() }
        let browser = TestClient()
        try browser.logIn(stack, as: DemoUser.skippy)
        let app = try browser.get(stack.baseURL + "/announcements/")
        #expect(app.status == 200 && MiniAppPage(app.body).announcements.count == 2, "\(app.body)")
        #expect(try stack.log("dev-tenant").contains("multi-resource token issued"))
    }

    @Test func requiredAgainstAProviderWithoutDPoPStopsStartUp() throws {
        let plain = try Stack()
        defer { plain.stop() }
        var environment = plain.devEnvironment
        environment["DPOP"] = "required"
        let checked = try Stack.run(Stack.binDir + "/metadata-demo", ["check-config"], environment: environment)
        #expect(checked.status == 1, "\(checked.output)")
        #expect(checked.output.contains("DPOP_KEY: DPOP is required but no key is given"), "\(checked.output)")
        #expect(checked.output.contains("DPOP: required, but the provider's discovery document does not list ES256"))
    }

    /// The tenant's side, played by hand with the product's own proofs: a bound token is of no
    /// use to whoever copies it (as `Bearer`, or proven by another key), and a proof works once.
    @Test func aCopiedTokenOrProofOpensNothing() throws {
        let stack = try stack(nonce: false)
        defer { stack.stop() }
        let verifier = PKCE.randomToken()
        let callback = stack.baseURL + "/callback"
        let clientID = try #require(stack.devEnvironment["AUTH0_CLIENT_ID"])
        let secret = try #require(stack.devEnvironment["AUTH0_CLIENT_SECRET"])
        let pairs = [
            ("response_type", "code"), ("client_id", clientID), ("redirect_uri", callback),
            ("scope", "openid read:current_user"), ("audience", stack.tenantURL + "/api/v2/"), ("state", "s"),
            ("code_challenge", PKCE.challenge(for: verifier)), ("code_challenge_method", "S256"),
        ]
        let location = try TestClient().signIn(
            at: stack.tenantURL + "/authorize?" + PercentEncoding.formEncode(pairs), email: DemoUser.random.email,
            password: DemoUser.random.password)
        let code = try #require(location.components(separatedBy: "code=").last?.components(separatedBy: "&").first)
        let curl = CurlHTTPClient()
        let key = try ECPrivateKey()
        let prover = try DPoP(key: key, http: curl, clock: .system)
        let exchanged = try prover.send(
            HTTPClientRequest(
                method: "POST", url: stack.tenantURL + "/oauth/token",
                headers: [("Content-Type", "application/x-www-form-urlencoded")],
                body: Array(
                    PercentEncoding.formEncode([
                        ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", callback),
                        ("code_verifier", verifier), ("client_id", clientID), ("client_secret", secret),
                    ]).utf8)))
        let body = try #require(JSONValue.parse(exchanged.body))
        #expect(exchanged.status == 200 && body["token_type"] == "DPoP", "\(body)")
        let token = try #require(body["access_token"]?.string)
        let user = stack.tenantURL + "/api/v2/users/" + PercentEncoding.encode("auth0|6489e0a1c2b3d4e5f6a7b8c9")
        let read = HTTPClientRequest(method: "GET", url: user, headers: [("Authorization", "Bearer " + token)])
        #expect(try prover.send(read).status == 200, "its key opens it")
        #expect(try curl.send(read).status == 401, "copied, as a bearer token")
        let thief = try DPoP(key: try ECPrivateKey(), http: curl, clock: .system)
        #expect(try thief.send(read).status == 401, "proven by another key")
        // A proof copied from a request that went through, sent again.
        let recorder = ScriptedHTTPClient { try curl.send($0) }
        #expect(try DPoP(key: key, http: recorder, clock: .system).send(read).status == 200)
        let replayed = try #require(recorder.sent.first)
        #expect(try curl.send(replayed).status == 401, "a proof works once")
        #expect(try stack.log("dev-tenant").contains("dpop-bound token refused"))
    }
}
