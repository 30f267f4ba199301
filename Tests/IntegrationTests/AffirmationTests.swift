import Foundation
import Testing
import Web

/// The personal affirmation and the announcement, end to end through nginx, the worker and
/// the dev tenant's Management API.
@Suite(.serialized) final class AffirmationTests {
    let stack: Stack

    init() throws {
        let directory = NSTemporaryDirectory() + "tenant-config-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let config = try TestTenant.writeConfig(into: directory)
        stack = try Stack(
            workerEnvironment: ["AUTH0_TIMEOUT_SECONDS": "1"],
            tenantEnvironment: ["DEV_TENANT_CONFIG": config])
        tenantConfig = config
    }
    let tenantConfig: String
    deinit { stack.stop() }

    private func home(_ browser: TestClient) throws -> TestClient.Answer { try browser.get(stack.baseURL + "/") }

    private func submit(_ browser: TestClient, _ action: String, _ text: String) throws -> TestClient.Answer {
        let csrf = TestClient.hiddenField("csrf", in: try home(browser).body) ?? ""
        return try browser.post(
            stack.baseURL + "/affirmation", form: [("csrf", csrf), ("affirmation", text), ("action", action)],
            headers: [("Origin", stack.baseURL)])
    }

    private func field(_ page: TestClient.Answer) -> String? {
        guard
            let range = page.body.range(
                of:
                    "id=\"affirmation\" name=\"affirmation\" type=\"text\" placeholder=\"Your affirmation here\" value=\""
            )
        else { return nil }
        let rest = page.body[range.upperBound...]
        return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
    }

    private func restartTenant(_ extra: [String: String] = [:]) throws {
        try stack.restartTenant(["DEV_TENANT_CONFIG": tenantConfig].merging(extra) { $1 })
    }

    @Test func skippySeesAffirmationAndAnnouncementSavesRefreshesAndItSurvivesATenantRestart() throws {
        let browser = TestClient()
        try browser.logIn(stack, as: DemoUser.skippy)
        let first = try home(browser)
        #expect(field(first) == "Believe in yourself!")
        #expect(
            first.body.contains(
                "<a class=\"announcement\" href=\"https://www.youtube.com/watch?v=DLzxrzFCyOs\" target=\"_blank\" rel=\"noopener noreferrer\">Tap here for an important announcement</a>"
            ))

        let saved = try submit(browser, "save", "   You’ve got this!!! 🎉  ")
        #expect(saved.status == 303)
        #expect(saved.header("location") == "/")
        let after = try home(browser)
        #expect(field(after) == "You’ve got this!!! 🎉")  // trimmed
        #expect(after.body.contains("Affirmation saved."))
        #expect(!(try home(browser)).body.contains("Affirmation saved."))  // shown once

        try restartTenant()
        let refreshed = try submit(browser, "refresh", "")
        #expect(refreshed.status == 303)
        let page = try home(browser)
        #expect(field(page) == "You’ve got this!!! 🎉")
        #expect(page.body.contains("Affirmation refreshed."))
        let state = try String(contentsOfFile: stack.runDir + "/dev-tenant-state.json", encoding: .utf8)
        #expect(state.contains("You’ve got this!!! 🎉"))
    }

    @Test func pageViewsNeverCallTheManagementAPI() throws {
        let browser = TestClient()
        try browser.logIn(stack, as: DemoUser.random)
        let before = stack.log("dev-tenant").components(separatedBy: "path=/api/v2/users/").count
        for _ in 0..<5 { _ = try home(browser) }
        #expect(stack.log("dev-tenant").components(separatedBy: "path=/api/v2/users/").count == before)
    }

    @Test func htmlInMetadataIsEscapedAndJavascriptLinksAreDropped() throws {
        let browser = TestClient()
        try browser.logIn(stack, as: TestTenant.mallory)
        let page = try home(browser)
        #expect(page.body.contains("value=\"&lt;script&gt;alert(1)&lt;/script&gt;\""))
        #expect(page.body.contains("Name: &lt;img src=x onerror=alert(1)&gt;"))
        #expect(!page.body.contains("<script>"))
        #expect(!page.body.contains("javascript:"))
        #expect(!page.body.contains("class=\"announcement\""))
        #expect(try stack.metric("metadata_demo_announcements_refused_total") == 1)
        // Saving HTML and emoji round-trips, escaped on the way out.
        #expect(try submit(browser, "save", "<b>bold</b> & 'quotes' \"double\" 🦘").status == 303)
        #expect(field(try home(browser)) == "&lt;b&gt;bold&lt;/b&gt; &amp; &#39;quotes&#39; &quot;double&quot; 🦘")
    }

    @Test func wrongJSONTypesShowNothing() throws {
        let browser = TestClient()
        try browser.logIn(stack, as: TestTenant.oddTypes)
        let page = try home(browser)
        #expect(field(page) == "")
        #expect(!page.body.contains("class=\"announcement\""))
    }

    @Test func tooLongAffirmationIsRefusedKeepingTheText() throws {
        let browser = TestClient()
        try browser.logIn(stack, as: DemoUser.random)
        let long = String(repeating: "a", count: 501)
        let answer = try submit(browser, "save", long)
        #expect(answer.status == 400)
        #expect(answer.body.contains("at most 500 characters"))
        #expect(field(answer) == long)
    }

    @Test(
        .serialized,
        arguments: [
            (["DEV_TENANT_FORCE_429": "1"], 429, "Auth0 is busy, try again in"),
            (["DEV_TENANT_FAIL_PERCENT": "100"], 503, "Auth0 had a problem saving this"),
            (["DEV_TENANT_LATENCY_MS": "2500"], 503, "Auth0 could not be reached"),
        ])
    func tenantFailuresKeepTheTypedText(fault: [String: String], status: Int, message: String) throws {
        let browser = TestClient()
        try browser.logIn(stack, as: DemoUser.random)
        try restartTenant(fault)
        defer { try? restartTenant() }
        let typed = "  Keep this text, please <3  "
        let answer = try submit(browser, "save", typed)
        #expect(answer.status == status)
        #expect(answer.body.contains(message))
        #expect(field(answer) == "  Keep this text, please &lt;3  ")
        #expect(answer.body.contains("You’re logged in!"))
        // Page views are unaffected: they need no tenant call.
        #expect(try home(browser).status == 200)
    }

    @Test func anExpiredAccessTokenIsRenewedBeforeASave() throws {
        try restartTenant(["DEV_TENANT_ACCESS_TOKEN_SECONDS": "30"])
        defer { try? restartTenant() }
        let browser = TestClient()
        try browser.logIn(stack, as: DemoUser.random)
        let refreshesBefore = stack.log("dev-tenant").components(separatedBy: "path=/oauth/token status=200").count
        #expect(try submit(browser, "save", "Renewed first").status == 303)
        let refreshesAfter = stack.log("dev-tenant").components(separatedBy: "path=/oauth/token status=200").count
        #expect(refreshesAfter == refreshesBefore + 1)
        #expect(field(try home(browser)) == "Renewed first")
        // The rotated refresh token was stored: a second save renews again without reuse errors.
        #expect(try submit(browser, "save", "Renewed twice").status == 303)
        #expect(field(try home(browser)) == "Renewed twice")
        #expect(!stack.log("dev-tenant").contains("path=/oauth/token status=403"))
    }

    /// The tenant's token endpoint in trouble (429, 503) when a save needs a renewal: the person
    /// stays logged in, sees why with their text kept, and the next save renews and succeeds.
    @Test(.serialized, arguments: ["503", "429"])
    func tokenEndpointTroubleKeepsTheSessionAndIsTriedAgain(status: String) throws {
        try restartTenant(["DEV_TENANT_ACCESS_TOKEN_SECONDS": "30"])  // every save renews first
        defer { try? restartTenant() }
        let browser = TestClient()
        try browser.logIn(stack, as: DemoUser.random)
        try restartTenant(["DEV_TENANT_ACCESS_TOKEN_SECONDS": "30", "DEV_TENANT_TOKEN_FAIL_STATUS": status])
        let failed = try submit(browser, "save", "Not lost")
        #expect(failed.status == 503)
        #expect(failed.body.contains("You’re logged in!"))
        #expect(failed.body.contains("Auth0 is busy or having trouble"))
        #expect(field(failed) == "Not lost")
        #expect(!failed.headers("set-cookie").contains { $0.hasPrefix("mds=;") })  // not logged out
        #expect(try home(browser).body.contains("You’re logged in!"))
        try restartTenant(["DEV_TENANT_ACCESS_TOKEN_SECONDS": "30"])
        let saved = try submit(browser, "save", "Saved on the second try")
        #expect(saved.status == 303)
        #expect(field(try home(browser)) == "Saved on the second try")
    }

    private func tokenRenewals() -> Int {
        stack.log("dev-tenant").components(separatedBy: "path=/oauth/token status=200").count
    }

    @Test func theAccessTokenTravelsOnlyToSaves() throws {
        let browser = TestClient()
        try browser.logIn(stack, as: DemoUser.random)
        #expect(browser.paths(of: "mds") == ["/"])
        #expect(browser.paths(of: "mda") == ["/affirmation"])
        let pageView = try #require(browser.cookieHeader(for: stack.baseURL + "/"))
        #expect(pageView.contains("mds=") && !pageView.contains("mda="))
        #expect(pageView.utf8.count < 800)  // profile, refresh token, metadata: no bearer token
        #expect(try browser.cookieHeader(for: stack.baseURL + "/affirmation")?.contains("mda=") == true)
        #expect(browser.cookieHeader(for: stack.baseURL + "/affirmations")?.contains("mda=") == false)
        // The page works on the session cookie alone; a save uses the token it was given at login.
        #expect(try home(browser).body.contains("You’re logged in!"))
        let renewals = tokenRenewals()
        #expect(try submit(browser, "save", "Token from login").status == 303)
        #expect(tokenRenewals() == renewals)
        #expect(field(try home(browser)) == "Token from login")
        #expect(try submit(browser, "save", "").status == 303)
    }

    @Test func aLostAccessTokenIsRenewedWithTheRefreshToken() throws {
        let browser = TestClient()
        try browser.logIn(stack, as: DemoUser.random)
        browser.forget("mda")
        let renewals = tokenRenewals()
        #expect(try submit(browser, "save", "After losing the token").status == 303)
        #expect(tokenRenewals() == renewals + 1)
        #expect(browser.paths(of: "mda") == ["/affirmation"])  // the new token is kept
        #expect(field(try home(browser)) == "After losing the token")
        #expect(try submit(browser, "save", "").status == 303)
        #expect(tokenRenewals() == renewals + 1)
    }

    @Test func anotherPersonsAccessTokenIsNeverUsed() throws {
        let skippy = TestClient()
        try skippy.logIn(stack, as: DemoUser.skippy)
        let random = TestClient()
        try random.logIn(stack, as: DemoUser.random)
        random.setCookie("mda", try #require(skippy.cookies["mda"]), path: "/affirmation")
        let renewals = tokenRenewals()
        #expect(try submit(random, "save", "Mine, not Skippys").status == 303)
        #expect(tokenRenewals() == renewals + 1)  // the planted token was ignored, not used
        #expect(field(try home(random)) == "Mine, not Skippys")
        #expect(field(try home(skippy)) == "Believe in yourself!")
        #expect(try submit(random, "save", "").status == 303)
    }

    @Test func aSaveWithAnExpiredSessionCompletesAfterLoggingInAgain() throws {
        let browser = TestClient()
        try browser.logIn(stack, as: DemoUser.random)
        let csrf = try #require(TestClient.hiddenField("csrf", in: try home(browser).body))
        // The session cookie is gone (expired) while the page stayed open; the tenant still knows them.
        let noSession = TestClient()
        for (name, value) in browser.cookies where name == "devtenant_sso" { noSession.setCookie(name, value) }
        let answer = try noSession.post(
            stack.baseURL + "/affirmation",
            form: [("csrf", csrf), ("affirmation", "Saved after login"), ("action", "save")],
            headers: [("Origin", stack.baseURL)])
        #expect(answer.status == 303)
        let authorize = try #require(answer.header("location"))
        #expect(authorize.hasPrefix(stack.tenantURL + "/authorize?"))
        let callback = try noSession.signIn(
            at: authorize, email: DemoUser.random.email, password: DemoUser.random.password)
        #expect(try noSession.get(callback).status == 302)
        let page = try home(noSession)
        #expect(field(page) == "Saved after login")
        #expect(page.body.contains("Affirmation saved."))
        #expect(try submit(noSession, "save", "").status == 303)
    }

    @Test func aPostFromAnotherSiteIsRefused() throws {
        let browser = TestClient()
        try browser.logIn(stack, as: DemoUser.random)
        let csrf = try #require(TestClient.hiddenField("csrf", in: try home(browser).body))
        for headers in [[("Origin", "https://evil.example")], [("Sec-Fetch-Site", "cross-site")], []] {
            let answer = try browser.post(
                stack.baseURL + "/affirmation", form: [("csrf", csrf), ("affirmation", "pwned"), ("action", "save")],
                headers: headers)
            #expect(answer.status == 403)
        }
        let noToken = try browser.post(
            stack.baseURL + "/affirmation", form: [("affirmation", "pwned"), ("action", "save")],
            headers: [("Origin", stack.baseURL)])
        #expect(noToken.status == 403)
        #expect(field(try home(browser)) != "pwned")
    }
}
