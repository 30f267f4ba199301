import Foundation
import Testing
import Web

/// Logging in and out through nginx, the real worker and the dev tenant.
@Suite(.serialized) final class LoginTests {
    let stack: Stack

    init() throws { stack = try Stack() }
    deinit { stack.stop() }

    @Test func skippyLogsInSeesProfileAndLogsOut() throws {
        let browser = TestClient()
        let callback = try browser.logIn(stack, as: DemoUser.skippy)
        #expect(callback.status == 302)
        #expect(callback.header("location") == "/")
        let home = try browser.get(stack.baseURL + "/")
        #expect(home.body.contains("You’re logged in!"))
        #expect(home.body.contains("Name: skippy@example.com"))
        #expect(home.body.contains("Email: skippy@example.com"))
        #expect(home.body.contains("class=\"avatar\" src=\"\(stack.tenantURL)/avatars/sk.svg\""))
        #expect(home.header("cache-control") == "no-store")
        // The session cookie is HttpOnly and SameSite=Lax; the transaction cookie is gone.
        let sessionCookie = try #require(callback.headers("set-cookie").first { $0.hasPrefix("mds=") })
        #expect(sessionCookie.contains("; HttpOnly") && sessionCookie.contains("; SameSite=Lax"), "\(sessionCookie)")
        #expect(browser.cookies.keys.contains("mds"))
        #expect(browser.cookies.keys.contains("mda"))
        #expect(!browser.cookies.keys.contains { $0.hasPrefix("mdtx.") })

        let csrf = try #require(TestClient.hiddenField("csrf", in: home.body))
        let logout = try browser.post(
            stack.baseURL + "/logout", form: [("csrf", csrf)], headers: [("Origin", stack.baseURL)])
        #expect(logout.status == 303)
        // The browser drops what it kept of the site (review 2, item 9).
        #expect(logout.header("clear-site-data") == #""cache", "storage""#)
        // The refresh token was revoked at the tenant, so a copy of the cookie could not renew.
        #expect(try stack.log("dev-tenant").contains("path=/oauth/revoke status=200"))
        let tenantLogout = try #require(logout.header("location"))
        #expect(tenantLogout.hasPrefix(stack.tenantURL + "/v2/logout?client_id=metadata-demo-dev&returnTo="))
        #expect(!browser.cookies.keys.contains("mds"))
        #expect(!browser.cookies.keys.contains("mda"))  // the access token is forgotten too
        let back = try browser.get(tenantLogout)
        #expect(back.status == 302)
        #expect(back.header("location") == stack.baseURL + "/logged-out")
        let loggedOut = try browser.get(stack.baseURL + "/logged-out")
        #expect(loggedOut.body.contains("You’re logged out."))
        // The tenant's session ended too: logging in again shows its login page.
        let again = try browser.get(try browser.startLogin(stack))
        #expect(again.status == 200)
        #expect(again.body.contains("name=\"password\""))
    }

    @Test func randomUserLogsInWithNoMetadata() throws {
        let browser = TestClient()
        #expect(try browser.logIn(stack, as: DemoUser.random).status == 302)
        let home = try browser.get(stack.baseURL + "/")
        #expect(home.body.contains("Email: randomuser@example.com"))
        #expect(home.body.contains("placeholder=\"Your affirmation here\" value=\"\""))
        #expect(!home.body.contains("class=\"announcement\""))
    }

    @Test func replayedAuthorizationCodeIsRefused() throws {
        let browser = TestClient()
        let authorize = try browser.startLogin(stack)
        let callback = try browser.signIn(
            at: authorize, email: DemoUser.skippy.email, password: DemoUser.skippy.password)
        #expect(try browser.get(callback).status == 302)
        // The same code again, with a fresh transaction for the same state forged by replaying cookies:
        let attacker = TestClient()
        let replay = try attacker.get(callback)
        #expect(replay.status == 400)
        #expect(replay.body.contains("Login expired"))
        // Even with the right transaction, a used code is refused by the tenant.
        let second = TestClient()
        let authorize2 = try second.startLogin(stack)
        let state = authorize2.components(separatedBy: "state=")[1].components(separatedBy: "&")[0]
        let code = callback.components(separatedBy: "code=")[1].components(separatedBy: "&")[0]
        let reused = try second.get(stack.baseURL + "/callback?code=\(code)&state=\(state)")
        #expect(reused.status == 400)
        #expect(reused.body.contains("Auth0 did not accept this login"))
        #expect(try stack.metric(#"metadata_demo_login_failures_total{reason="code_exchange_failed"}"#) == 1)
    }

    @Test func forgedStateIsRefused() throws {
        let browser = TestClient()
        _ = try browser.startLogin(stack)
        let forged = try browser.get(stack.baseURL + "/callback?code=abc&state=forged-state")
        #expect(forged.status == 400)
        #expect(forged.body.contains("Login expired"))
        #expect(forged.body.contains(">Log in</a>"))
        let missing = try browser.get(stack.baseURL + "/callback?code=abc")
        #expect(missing.status == 400)
    }

    @Test(arguments: [
        "//evil.example", "https://evil.example", "/\\evil.example", "/%2Fevil.example", "%2F%2Fevil.example",
    ])
    func offSiteReturnToIsReplacedByHome(_ target: String) throws {
        let browser = TestClient()
        let callback = try browser.logIn(stack, as: DemoUser.random, returnTo: target)
        #expect(callback.status == 302)
        #expect(callback.header("location") == "/")
    }

    @Test func relativeReturnToIsKept() throws {
        let browser = TestClient()
        let callback = try browser.logIn(stack, as: DemoUser.random, returnTo: "/logged-out?x=1")
        #expect(callback.header("location") == "/logged-out?x=1")
    }

    @Test func cancellingOnTheTenantShowsAClearPage() throws {
        let browser = TestClient()
        let authorize = try browser.startLogin(stack)
        let page = try browser.get(authorize)
        let tx = try #require(TestClient.hiddenField("tx", in: page.body))
        let cancel = try browser.post(stack.tenantURL + "/u/login", form: [("tx", tx), ("action", "cancel")])
        let location = try #require(cancel.header("location"))
        #expect(location.contains("error=access_denied"))
        let back = try browser.get(location)
        #expect(back.status == 403)
        #expect(back.body.contains("Login cancelled"))
        #expect(back.body.contains(">Log in</a>"))
    }

    @Test func logoutWithoutCSRFTokenIsRefused() throws {
        let browser = TestClient()
        try browser.logIn(stack, as: DemoUser.random)
        let refused = try browser.post(
            stack.baseURL + "/logout", form: [("csrf", "wrong")], headers: [("Origin", stack.baseURL)])
        #expect(refused.status == 403)
        let crossSite = try browser.post(
            stack.baseURL + "/logout",
            form: [("csrf", TestClient.hiddenField("csrf", in: try browser.get(stack.baseURL + "/").body) ?? "")],
            headers: [("Origin", "https://evil.example")])
        #expect(crossSite.status == 403)
        #expect(try browser.get(stack.baseURL + "/").body.contains("You’re logged in!"))
        // GET /logout only asks.
        let confirm = try browser.get(stack.baseURL + "/logout")
        #expect(confirm.body.contains("Log out?"))
        #expect(try browser.get(stack.baseURL + "/").body.contains("You’re logged in!"))
    }

    @Test func tamperedSessionCookieIsALoggedOutVisitor() throws {
        let browser = TestClient()
        try browser.logIn(stack, as: DemoUser.random)
        let value = try #require(browser.cookies["mds"])
        var bytes = Array(value.utf8)
        bytes[bytes.count / 2] = bytes[bytes.count / 2] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        let tampered = try browser.get(
            stack.baseURL + "/", headers: [("Cookie", "mds=" + String(decoding: bytes, as: UTF8.self))])
        #expect(tampered.status == 200)
        #expect(tampered.body.contains("Metadata demo"))
        #expect(tampered.headers("set-cookie").contains { $0.hasPrefix("mds=;") && $0.contains("Max-Age=0") })
        let truncated = try browser.get(stack.baseURL + "/", headers: [("Cookie", "mds=" + value.prefix(40))])
        #expect(truncated.body.contains("Metadata demo"))
    }

    @Test func badQueryEncodingIs400AndTheWorkerKeepsServing() throws {
        let browser = TestClient()
        let bad = try browser.get(stack.baseURL + "/login?returnTo=%ZZ")
        #expect(bad.status == 400)
        #expect(bad.body.contains("could not be understood"))
        let nul = try browser.get(stack.baseURL + "/callback?state=%00")
        #expect(nul.status == 400)
        #expect(try browser.get(stack.baseURL + "/healthz").status == 200)
    }
}
