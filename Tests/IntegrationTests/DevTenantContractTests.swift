import CurlClient
import Foundation
import Testing
import Web

/// The dev tenant answers as `shared/auth0-api.md` documents Auth0, over real sockets.
@Suite(.serialized) final class DevTenantContractTests {
    let stack: Stack
    var clientID: String { stack.devEnvironment["AUTH0_CLIENT_ID"]! }
    var secret: String { stack.devEnvironment["AUTH0_CLIENT_SECRET"]! }
    var callback: String { stack.baseURL + "/callback" }
    var api: String { stack.tenantURL + "/api/v2/" }

    init() throws { stack = try Stack(tenantEnvironment: ["DEV_TENANT_USER_RATE_PER_MINUTE": "5"]) }
    deinit { stack.stop() }

    /// Authorize and sign in as a client would; returns the code.
    private func code(
        _ browser: TestClient, user: (email: String, password: String) = DemoUser.random, scope: String,
        audience: String? = nil
    ) throws -> String {
        var pairs = [
            ("response_type", "code"), ("client_id", clientID), ("redirect_uri", callback), ("scope", scope),
            ("state", "st"), ("nonce", "nn"), ("code_challenge", Self.challenge),
            ("code_challenge_method", "S256"),
        ]
        if let audience { pairs.append(("audience", audience)) }
        let location = try browser.signIn(
            at: stack.tenantURL + "/authorize?" + PercentEncoding.formEncode(pairs), email: user.email,
            password: user.password)
        #expect(location.hasPrefix(callback + "?code="))
        #expect(location.hasSuffix("&state=st"))
        return location.components(separatedBy: "code=")[1].components(separatedBy: "&")[0]
    }

    /// The PKCE pair every login here uses. The challenge was computed once with OpenSSL's command line
    /// (`printf %s VERIFIER | openssl dgst -sha256 -binary | base64`, made URL-safe), apart from the
    /// tenant's own code, whose S256 check is what is under test.
    private static let verifier = "verifier-verifier-verifier-verifier-verifier"
    private static let challenge = "fD3GLJ_KzCDB0w6uDOSFNNdflrHwtv8Cizh6P5pJkfQ"

    private func token(_ form: [(String, String)], basic: Bool = false) throws -> (Int, JSONValue) {
        let client = TestClient()
        var form = form
        var headers: [(name: String, value: String)] = []
        if basic {
            headers.append(("Authorization", "Basic " + Base64URL.encodeStandard(Array("\(clientID):\(secret)".utf8))))
        } else {
            form += [("client_id", clientID), ("client_secret", secret)]
        }
        let answer = try client.post(stack.tenantURL + "/oauth/token", form: form, headers: headers)
        return (answer.status, JSONValue.parse(Array(answer.body.utf8)) ?? .null)
    }

    private func tokens(
        scope: String = "openid profile email read:current_user update:current_user_metadata offline_access",
        audience: String? = nil, user: (email: String, password: String) = DemoUser.random
    ) throws -> JSONValue {
        let code = try code(TestClient(), user: user, scope: scope, audience: audience ?? api)
        let (status, body) = try token([
            ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", callback),
            ("code_verifier", Self.verifier),
        ])
        #expect(status == 200)
        return body
    }

    private func management(_ method: String, _ path: String, token: String, body: String = "") throws
        -> TestClient.Answer
    {
        try TestClient().send(
            method, api + path, headers: [("Authorization", "Bearer " + token), ("Content-Type", "application/json")],
            body: Array(body.utf8))
    }

    /// The review's request: one unauthenticated 2.4 KB JSON body nested 400 deep used to crash
    /// the dev tenant (SIGSEGV: a complete object that deep overflows a 1 MiB serving thread). It is a 400 with an OAuth error, and the same process serves on.
    @Test func deeplyNestedJSONIsRefusedWithoutCrashing() throws {
        let client = TestClient()
        let deep = String(repeating: #"{"a":"#, count: 400) + "1" + String(repeating: "}", count: 400)
        for body in [deep, String(repeating: #"{"a":"#, count: 400), String(repeating: "[", count: 20_000)] {
            let answer = try client.send(
                "POST", stack.tenantURL + "/oauth/token", headers: [("Content-Type", "application/json")],
                body: Array(body.utf8))
            #expect(answer.status == 400)
            #expect(JSONValue.parse(Array(answer.body.utf8))?["error"]?.string == "invalid_request")
        }
        #expect(stack.isRunning("dev-tenant"))
        #expect(try client.get(stack.tenantURL + "/healthz").status == 200)
    }

    /// The login form's ticket for a fresh `/authorize` in `browser`.
    private func loginTicket(_ browser: TestClient) throws -> String {
        let pairs = [
            ("response_type", "code"), ("client_id", clientID), ("redirect_uri", callback), ("scope", "openid"),
            ("state", "st"), ("code_challenge", Self.challenge),
            ("code_challenge_method", "S256"),
        ]
        let page = try browser.get(stack.tenantURL + "/authorize?" + PercentEncoding.formEncode(pairs))
        return try #require(TestClient.hiddenField("tx", in: page.body))
    }

    private func submit(
        _ browser: TestClient, tx: String, _ user: (email: String, password: String), origin: String? = nil
    ) throws -> TestClient.Answer {
        // A person's first login to the app goes through the consent screen: Accept.
        try browser.acceptConsent(
            try browser.post(
                stack.tenantURL + "/u/login",
                form: [("tx", tx), ("email", user.email), ("password", user.password), ("action", "login")],
                headers: [("Origin", origin ?? stack.tenantURL)]),
            tenant: stack.tenantURL)
    }

    /// Login CSRF: a form posted from another site, or with a ticket this browser was not
    /// given, logs nobody in; a ticket logs in once, one person.
    @Test func theLoginFormRefusesOtherSitesOtherBrowsersAndASecondUse() throws {
        let browser = TestClient()
        let tx = try loginTicket(browser)
        let forged = try submit(browser, tx: tx, DemoUser.random, origin: "https://evil.example")
        #expect(forged.status == 403)
        #expect(browser.cookies["devtenant_sso"] == nil)
        let elsewhere = try submit(TestClient(), tx: tx, DemoUser.random)  // no cookie of this ticket
        #expect(elsewhere.status == 400)
        #expect(elsewhere.body.contains("Login expired"))
        let first = try submit(browser, tx: tx, DemoUser.random)
        #expect(first.status == 302)
        #expect(first.header("location")?.hasPrefix(callback + "?code=") == true)
        let again = try submit(browser, tx: tx, DemoUser.skippy)
        #expect(again.status == 400)
        #expect(again.body.contains("Login expired"))
    }

    /// Guessing: after 10 wrong passwords for one email, even the right one is answered 429
    /// with a plain page; other people are not locked out by it.
    @Test func wrongPasswordsAreLimitedPerEmail() throws {
        let browser = TestClient()
        let tx = try loginTicket(browser)
        for _ in 0..<10 {
            #expect(try submit(browser, tx: tx, (DemoUser.random.email, "wrong")).status == 400)
        }
        let limited = try submit(browser, tx: tx, DemoUser.random)
        #expect(limited.status == 429)
        #expect(limited.body.contains("Too many attempts"))
        #expect(limited.header("retry-after") != nil)
        #expect(try submit(browser, tx: tx, DemoUser.skippy).status == 302)
    }

    /// The same for the OIDC logout confirmation: only from the tenant's own page, once.
    @Test func theLogoutConfirmationRefusesOtherSitesAndASecondUse() throws {
        let browser = TestClient()
        _ = try browser.logIn(stack, as: DemoUser.random)
        let page = try browser.get(
            stack.tenantURL + "/oidc/logout?client_id=\(clientID)&post_logout_redirect_uri="
                + PercentEncoding.encode(stack.baseURL + "/logged-out"))
        // Never in another site's frame, never sniffed (review 2, item 9).
        #expect(page.header("content-security-policy")?.contains("frame-ancestors 'none'") == true)
        #expect(page.header("x-frame-options") == "DENY")
        #expect(page.header("x-content-type-options") == "nosniff")
        let notFound = try browser.get(stack.tenantURL + "/nowhere")
        #expect(
            notFound.status == 404 && notFound.header("content-security-policy")?.contains("frame-ancestors") == true)
        let ticket = try #require(TestClient.hiddenField("ticket", in: page.body))
        let confirm = { (origin: String) in
            try browser.post(
                self.stack.tenantURL + "/oidc/logout/confirm", form: [("ticket", ticket)], headers: [("Origin", origin)]
            )
        }
        #expect(try confirm("https://evil.example").status == 403)
        #expect(browser.cookies["devtenant_sso"] != nil)  // still logged in at the tenant
        let done = try confirm(stack.tenantURL)
        #expect(done.status == 302)
        #expect(done.header("location") == stack.baseURL + "/logged-out")
        #expect(try confirm(stack.tenantURL).status == 400)
    }

    @Test func discoveryAndKeysLookLikeAuth0s() throws {
        let discovery = JSONValue.parse(
            Array(try TestClient().get(stack.tenantURL + "/.well-known/openid-configuration").body.utf8))
        #expect(discovery?["issuer"]?.string == stack.tenantURL + "/")
        #expect(discovery?["token_endpoint"]?.string == stack.tenantURL + "/oauth/token")
        #expect(discovery?["end_session_endpoint"]?.string == stack.tenantURL + "/oidc/logout")
        #expect(discovery?["code_challenge_methods_supported"] == .array(["S256", "plain"]))
        let jwks = JSONValue.parse(Array(try TestClient().get(stack.tenantURL + "/.well-known/jwks.json").body.utf8))
        let key = jwks?["keys"]?.array?.first
        #expect(key?["kty"]?.string == "RSA")
        #expect(key?["e"]?.string == "AQAB")
        #expect(key?["kid"]?.string?.isEmpty == false)
    }

    @Test func authorizeNeverRedirectsToAnUnknownClientOrCallback() throws {
        let unknown = try TestClient().get(
            stack.tenantURL + "/authorize?response_type=code&client_id=nope&redirect_uri=https%3A%2F%2Fevil.example%2F")
        #expect(unknown.status == 400)
        #expect(unknown.header("location") == nil)
        let badCallback = try TestClient().get(
            stack.tenantURL
                + "/authorize?response_type=code&client_id=\(clientID)&redirect_uri=https%3A%2F%2Fevil.example%2Fcallback"
        )
        #expect(badCallback.status == 400)
        #expect(badCallback.header("location") == nil)
    }

    @Test func codeExchangeChecksClientPKCEAndSingleUse() throws {
        let browser = TestClient()
        let code1 = try code(browser, scope: "openid")
        let wrongClient = try TestClient().post(
            stack.tenantURL + "/oauth/token",
            form: [
                ("grant_type", "authorization_code"), ("client_id", clientID), ("client_secret", "wrong"),
                ("code", code1),
            ])
        #expect(wrongClient.status == 401)
        #expect(
            JSONValue.parse(Array(wrongClient.body.utf8))
                == .object(["error": "access_denied", "error_description": "Unauthorized"]))

        let (mismatch, body) = try token([
            ("grant_type", "authorization_code"), ("code", try code(browser, scope: "openid")),
            ("redirect_uri", callback), ("code_verifier", "another-verifier-another-verifier-another"),
        ])
        #expect(mismatch == 403)
        #expect(body == .object(["error": "invalid_grant", "error_description": "Failed to verify code verifier"]))

        let code3 = try code(browser, scope: "openid")
        let form = [
            ("grant_type", "authorization_code"), ("code", code3), ("redirect_uri", callback),
            ("code_verifier", Self.verifier),
        ]
        let (ok, tokens) = try token(form, basic: true)
        #expect(ok == 200)
        #expect(tokens["token_type"]?.string == "Bearer")
        #expect(tokens["id_token"]?.string != nil)
        #expect(tokens["refresh_token"] == nil)  // no offline_access
        let (again, error) = try token(form, basic: true)
        #expect(again == 403)
        #expect(error["error_description"]?.string == "Invalid authorization code")
    }

    @Test func refreshTokensRotateAndReuseRevokesTheFamily() throws {
        let first = try tokens()
        let rt1 = try #require(first["refresh_token"]?.string)
        let (status2, second) = try token([("grant_type", "refresh_token"), ("refresh_token", rt1)])
        #expect(status2 == 200)
        let rt2 = try #require(second["refresh_token"]?.string)
        #expect(rt2 != rt1)
        #expect(second["id_token"]?.string != nil)
        // rt1 again: reuse. It fails and kills rt2 too.
        let (reuse, error) = try token([("grant_type", "refresh_token"), ("refresh_token", rt1)])
        #expect(reuse == 403)
        #expect(error == .object(["error": "invalid_grant", "error_description": "Unknown or invalid refresh token."]))
        let (afterReuse, _) = try token([("grant_type", "refresh_token"), ("refresh_token", rt2)])
        #expect(afterReuse == 403)
    }

    @Test func revokedRefreshTokensNoLongerWork() throws {
        let rt = try #require(try tokens()["refresh_token"]?.string)
        let refused = try TestClient().post(
            stack.tenantURL + "/oauth/revoke",
            form: [("client_id", clientID), ("client_secret", "wrong"), ("token", rt)])
        #expect(refused.status == 401)
        let revoked = try TestClient().post(
            stack.tenantURL + "/oauth/revoke",
            form: [("client_id", clientID), ("client_secret", secret), ("token", rt)])
        #expect(revoked.status == 200)
        let (status, error) = try token([("grant_type", "refresh_token"), ("refresh_token", rt)])
        #expect(status == 403)
        #expect(error["error"]?.string == "invalid_grant")
        // Revoking an unknown token is not an error (RFC 7009).
        let unknown = try TestClient().post(
            stack.tenantURL + "/oauth/revoke",
            form: [("client_id", clientID), ("client_secret", secret), ("token", "nope")])
        #expect(unknown.status == 200)
    }

    @Test func userinfoNeedsAValidToken() throws {
        let at = try #require(try tokens()["access_token"]?.string)
        let info = try TestClient().get(stack.tenantURL + "/userinfo", headers: [("Authorization", "Bearer " + at)])
        #expect(JSONValue.parse(Array(info.body.utf8))?["email"]?.string == DemoUser.random.email)
        // One signature character changed, well inside it: a change in the last characters may
        // fall on base64's unused bits and leave the signature as it was.
        var altered = Array(at.utf8)
        let middle = altered.count - 100
        altered[middle] = altered[middle] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        let bad = try TestClient().get(
            stack.tenantURL + "/userinfo",
            headers: [("Authorization", "Bearer " + String(decoding: altered, as: UTF8.self))])
        #expect(bad.status == 401)
    }

    @Test func managementAPIFollowsAuth0sRules() throws {
        let all = try tokens()
        let at = try #require(all["access_token"]?.string)
        let id = "auth0%7C6489e0a1c2b3d4e5f6a7b8c9"
        let read = try management("GET", "users/\(id)?fields=user_metadata,app_metadata&include_fields=true", token: at)
        #expect(read.status == 200)
        #expect(
            Set(JSONValue.parse(Array(read.body.utf8))?.object?.keys ?? [:].keys) == ["user_metadata", "app_metadata"])
        #expect(read.header("x-ratelimit-limit") == "5")
        #expect(read.header("x-ratelimit-remaining") == "4")
        #expect(read.header("x-ratelimit-reset") != nil)

        let merged = try management("PATCH", "users/\(id)", token: at, body: #"{"user_metadata":{"a":1,"b":{"c":2}}}"#)
        #expect(merged.status == 200)
        let deleted = try management(
            "PATCH", "users/\(id)", token: at, body: #"{"user_metadata":{"a":null,"b":{"d":3}}}"#)
        #expect(
            JSONValue.parse(Array(deleted.body.utf8))?["user_metadata"] == .object(["b": .object(["d": .number(3)])]))
        #expect(JSONValue.parse(Array(deleted.body.utf8))?["email"]?.string == DemoUser.random.email)  // the whole user

        let dotted = try management("PATCH", "users/\(id)", token: at, body: #"{"user_metadata":{"a.b":1}}"#)
        #expect(dotted.status == 400)
        #expect(JSONValue.parse(Array(dotted.body.utf8))?["errorCode"]?.string == "invalid_body")
        let cleared = try management("PATCH", "users/\(id)", token: at, body: #"{"user_metadata":{}}"#)
        #expect(JSONValue.parse(Array(cleared.body.utf8))?["user_metadata"] == .object([:]))
        #expect(cleared.header("x-ratelimit-remaining") == "0")
        let limited = try management("GET", "users/\(id)", token: at)
        #expect(limited.status == 429)  // the sixth call this minute for this user
        #expect(JSONValue.parse(Array(limited.body.utf8))?["errorCode"]?.string == "too_many_requests")
    }

    @Test func machineTokensFollowTheirClientGrant() throws {
        let id = "auth0%7C6489e0a1c2b3d4e5f6a7b8ca"
        // The dev application's grant holds delete:sessions and update:users only: asking for
        // another scope gives a token without it.
        let appOnly = try stack.managementToken(scope: "update:users_app_metadata")
        let narrowed = try management("PATCH", "users/\(id)", token: appOnly, body: #"{"app_metadata":{"x":1}}"#)
        #expect(narrowed.status == 403)
        let admin = try stack.managementToken(scope: "update:users")
        let both = try management(
            "PATCH", "users/\(id)", token: admin, body: #"{"app_metadata":{"x":1},"user_metadata":{"y":2}}"#)
        #expect(both.status == 200)
        #expect(JSONValue.parse(Array(both.body.utf8))?["app_metadata"]?["x"] == .number(1))
        let other = try management("PATCH", "users/\(id)", token: admin, body: #"{"blocked":true}"#)
        #expect(other.status == 403)
        let sessions = try stack.managementToken(scope: "delete:sessions")
        let refused = try management("PATCH", "users/\(id)", token: sessions, body: #"{"app_metadata":{"x":2}}"#)
        #expect(refused.status == 403)
    }

    @Test func managementAPIRefusesOtherFieldsUsersScopesAndAudiences() throws {
        let at = try #require(try tokens(user: DemoUser.skippy)["access_token"]?.string)
        let me = "auth0%7C6489e0a1c2b3d4e5f6a7b8ca"  // skippy: rate-limited apart from the test above
        let appMetadata = try management(
            "PATCH", "users/\(me)", token: at, body: #"{"app_metadata":{"display_announcement":true}}"#)
        #expect(appMetadata.status == 403)
        let other = try management(
            "PATCH", "users/auth0%7C6489e0a1c2b3d4e5f6a7b8c9", token: at, body: #"{"user_metadata":{"x":1}}"#)
        #expect(other.status == 403)
        let readOnly = try #require(
            try tokens(scope: "openid read:current_user", user: DemoUser.skippy)["access_token"]?.string)
        let noScope = try management("PATCH", "users/\(me)", token: readOnly, body: #"{"user_metadata":{"x":1}}"#)
        #expect(noScope.status == 403)
        #expect(
            JSONValue.parse(Array(noScope.body.utf8))?["message"]?.string
                == "Insufficient scope, expected any of: update:users,update:users_app_metadata,update:current_user_metadata"
        )
        let userinfoOnly = try #require(
            try tokens(scope: "openid", audience: stack.tenantURL + "/userinfo", user: DemoUser.skippy)["access_token"]?
                .string)
        let badAudience = try management("GET", "users/\(me)", token: userinfoOnly)
        #expect(badAudience.status == 401)
        #expect(JSONValue.parse(Array(badAudience.body.utf8))?["message"]?.string?.hasPrefix("Bad audience") == true)
        let invalid = try management("GET", "users/\(me)", token: "not-a-token")
        #expect(invalid.status == 401)
        #expect(JSONValue.parse(Array(invalid.body.utf8))?["message"]?.string == "Invalid token")
    }

    @Test func logoutReturnsOnlyToAllowedURLs() throws {
        let bad = try TestClient().get(
            stack.tenantURL + "/v2/logout?client_id=\(clientID)&returnTo="
                + PercentEncoding.encode("https://evil.example/"))
        #expect(bad.status == 400)
        #expect(bad.header("location") == nil)
        let good = try TestClient().get(
            stack.tenantURL + "/v2/logout?client_id=\(clientID)&returnTo="
                + PercentEncoding.encode(stack.baseURL + "/logged-out"))
        #expect(good.status == 302)
        let oidcState = try TestClient().get(
            stack.tenantURL + "/oidc/logout?client_id=\(clientID)&post_logout_redirect_uri="
                + PercentEncoding.encode(stack.baseURL + "/logged-out") + "&state=xyz")
        #expect(oidcState.header("location") == stack.baseURL + "/logged-out?state=xyz")
    }
}

/// The product's libcurl client keeps its connection to the tenant open between calls.
@Suite struct ConnectionReuseTests {
    @Test func hundredSequentialCallsFromOneThreadUseOneConnection() throws {
        let stack = try Stack()
        defer { stack.stop() }
        let client = CurlHTTPClient()
        var opened = 0
        for _ in 0..<100 {
            let answer = try client.send(
                HTTPClientRequest(method: "GET", url: stack.tenantURL + "/.well-known/jwks.json", timeoutSeconds: 5))
            #expect(answer.status == 200)
            opened += try client.connectionsOpenedByLastCallOnThisThread()
        }
        #expect(opened == 1)
    }
}
