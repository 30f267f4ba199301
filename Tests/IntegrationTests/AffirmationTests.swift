import Foundation
import Locking
import Testing
import Web

/// The personal affirmation and the announcement, end to end against the dev tenant's
/// Management API, each test run twice: in-process (`InProcessSite`: the product's pipeline and
/// the dev tenant without sockets) and through nginx, the worker and the dev tenant as processes
/// (`Stack`). One suite, so the two cannot drift apart.
@Suite(.serialized) struct AffirmationTests {
    /// A site of `kind` whose tenant knows the test people too (`TestTenant`), with a one-second
    /// limit on calls to it.
    private func open(_ kind: SiteKind) throws -> any TestSite {
        let site = try kind.open(
            workerEnvironment: ["AUTH0_TIMEOUT_SECONDS": "1"],
            tenantEnvironment: ["DEV_TENANT_CONFIG": try Self.tenantConfig()])
        return site
    }

    /// The test tenant's configuration, written once per run.
    private static func tenantConfig() throws -> String {
        try configOnce.withLock { path in
            if let path { return path }
            let directory = NSTemporaryDirectory() + "tenant-config-\(UUID().uuidString.prefix(8))"
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let written = try TestTenant.writeConfig(into: directory)
            path = written
            return written
        }
    }
    private static let configOnce = Lock<String?>(nil)

    /// A site of `kind` and a browser logged in there as `person`.
    private func loggedIn(_ kind: SiteKind, as person: (email: String, password: String)) throws
        -> (any TestSite, TestClient)
    {
        let site = try open(kind)
        let browser = site.browser()
        try browser.logIn(site, as: person)
        return (site, browser)
    }

    private func home(_ site: any TestSite, _ browser: TestClient) throws -> TestClient.Answer {
        try browser.get(site.baseURL + "/")
    }

    private func submit(_ site: any TestSite, _ browser: TestClient, _ action: String, _ text: String) throws
        -> TestClient.Answer
    {
        let csrf = TestClient.hiddenField("csrf", in: try home(site, browser).body) ?? ""
        return try browser.post(
            site.baseURL + "/affirmation", form: [("csrf", csrf), ("affirmation", text), ("action", action)],
            headers: [("Origin", site.baseURL)])
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

    private func restartTenant(_ site: any TestSite, _ extra: [String: String] = [:]) throws {
        try site.restartTenant(["DEV_TENANT_CONFIG": try Self.tenantConfig()].merging(extra) { $1 })
    }

    private func tokenRenewals(_ site: any TestSite) throws -> Int {
        try site.tenantRequests(path: "/oauth/token", status: 200)
    }

    @Test(arguments: SiteKind.allCases)
    func skippySeesAffirmationAndAnnouncementSavesRefreshesAndItSurvivesATenantRestart(on kind: SiteKind) throws {
        let (site, browser) = try loggedIn(kind, as: DemoUser.skippy)
        let first = try home(site, browser)
        #expect(field(first) == "Believe in yourself!")
        #expect(
            first.body.contains(
                "<a class=\"announcement\" href=\"https://www.youtube.com/watch?v=DLzxrzFCyOs\" target=\"_blank\" rel=\"noopener noreferrer\">Tap here for an important announcement</a>"
            ))

        let patches = try site.tenantRequests(path: "/api/v2/users/", status: 200)
        let saved = try submit(site, browser, "save", "   You’ve got this!!! 🎉  ")
        #expect(saved.status == 303)
        #expect(saved.header("location") == "/")
        // The page before the save read nothing from the tenant; the save wrote once.
        #expect(try site.tenantRequests(path: "/api/v2/users/", status: 200) == patches + 1)
        let after = try home(site, browser)
        #expect(field(after) == "You’ve got this!!! 🎉")  // trimmed
        #expect(after.body.contains("Affirmation saved."))
        // Showing the confirmation clears it without sealing the session again.
        let written = after.headers("set-cookie")
        #expect(
            written.count == 1 && written.allSatisfy { $0.contains("mdf") && $0.contains("Max-Age=0") }, "\(written)")
        #expect(!(try home(site, browser)).body.contains("Affirmation saved."))  // shown once

        try restartTenant(site)
        let refreshed = try submit(site, browser, "refresh", "")
        #expect(refreshed.status == 303)
        let page = try home(site, browser)
        #expect(field(page) == "You’ve got this!!! 🎉")
        #expect(page.body.contains("Affirmation refreshed."))
        let state = try String(contentsOfFile: site.runDir + "/dev-tenant-state.json", encoding: .utf8)
        #expect(state.contains("You’ve got this!!! 🎉"))
    }

    @Test(arguments: SiteKind.allCases)
    func pageViewsNeverCallTheManagementAPI(on kind: SiteKind) throws {
        let (site, browser) = try loggedIn(kind, as: DemoUser.random)
        let before = try site.tenantRequests(path: "/api/v2/users/", status: nil)
        for _ in 0..<5 { _ = try home(site, browser) }
        #expect(try site.tenantRequests(path: "/api/v2/users/", status: nil) == before)
    }

    @Test(arguments: SiteKind.allCases)
    func htmlInMetadataIsEscapedAndJavascriptLinksAreDropped(on kind: SiteKind) throws {
        let (site, browser) = try loggedIn(kind, as: TestTenant.mallory)
        let page = try home(site, browser)
        #expect(page.body.contains("value=\"&lt;script&gt;alert(1)&lt;/script&gt;\""))
        #expect(page.body.contains("Name: &lt;img src=x onerror=alert(1)&gt;"))
        #expect(!page.body.contains("<script>"))
        #expect(!page.body.contains("javascript:"))
        #expect(!page.body.contains("class=\"announcement\""))
        #expect(try site.metric("metadata_demo_announcements_refused_total") == 1)
        // Saving HTML and emoji round-trips, escaped on the way out.
        #expect(try submit(site, browser, "save", "<b>bold</b> & 'quotes' \"double\" 🦘").status == 303)
        #expect(field(try home(site, browser)) == "&lt;b&gt;bold&lt;/b&gt; &amp; &#39;quotes&#39; &quot;double&quot; 🦘")
    }

    @Test(arguments: SiteKind.allCases)
    func wrongJSONTypesShowNothing(on kind: SiteKind) throws {
        let (site, browser) = try loggedIn(kind, as: TestTenant.oddTypes)
        let page = try home(site, browser)
        #expect(field(page) == "")
        #expect(!page.body.contains("class=\"announcement\""))
    }

    @Test(arguments: SiteKind.allCases)
    func tooLongAffirmationIsRefusedKeepingTheText(on kind: SiteKind) throws {
        let (site, browser) = try loggedIn(kind, as: DemoUser.random)
        // Characters are counted, not bytes: 501 two-byte ones.
        let long = String(repeating: "é", count: 501)
        let calls = try site.tenantRequests(path: "/", status: nil)
        let answer = try submit(site, browser, "save", long)
        #expect(answer.status == 400)
        #expect(answer.body.contains("at most 500 characters"))
        #expect(field(answer) == long)
        #expect(try site.tenantRequests(path: "/", status: nil) == calls)  // refused before calling the tenant
    }

    @Test(
        .serialized,
        arguments: SiteKind.allCases,
        [
            (["DEV_TENANT_FORCE_429": "1"], 429, "Auth0 is busy, try again in"),
            (["DEV_TENANT_FAIL_PERCENT": "100"], 503, "Auth0 had a problem saving this"),
            (["DEV_TENANT_LATENCY_MS": "2500"], 503, "Auth0 could not be reached"),
        ])
    func tenantFailuresKeepTheTypedText(on kind: SiteKind, fault: ([String: String], Int, String)) throws {
        let site = try open(kind)
        let (fault, status, message) = fault
        let browser = site.browser()
        try browser.logIn(site, as: DemoUser.random)
        try restartTenant(site, fault)
        defer { try? restartTenant(site) }
        let typed = "  Keep this text, please <3  "
        let answer = try submit(site, browser, "save", typed)
        #expect(answer.status == status)
        #expect(answer.body.contains(message))
        #expect(field(answer) == "  Keep this text, please &lt;3  ")
        #expect(answer.body.contains("You’re logged in!"))
        // Page views are unaffected: they need no tenant call.
        #expect(try home(site, browser).status == 200)
    }

    @Test(arguments: SiteKind.allCases)
    func anExpiredAccessTokenIsRenewedBeforeASave(on kind: SiteKind) throws {
        let site = try open(kind)
        try restartTenant(site, ["DEV_TENANT_ACCESS_TOKEN_SECONDS": "30"])
        defer { try? restartTenant(site) }
        let browser = site.browser()
        try browser.logIn(site, as: DemoUser.random)
        let refreshesBefore = try tokenRenewals(site)
        #expect(try submit(site, browser, "save", "Renewed first").status == 303)
        let refreshesAfter = try tokenRenewals(site)
        #expect(refreshesAfter == refreshesBefore + 1)
        #expect(field(try home(site, browser)) == "Renewed first")
        // The rotated refresh token was stored: a second save renews again without reuse errors.
        #expect(try submit(site, browser, "save", "Renewed twice").status == 303)
        #expect(field(try home(site, browser)) == "Renewed twice")
        #expect(try site.tenantRequests(path: "/oauth/token", status: 403) == 0)
    }

    /// The tenant's token endpoint in trouble (429, 503) when a save needs a renewal: the person
    /// stays logged in, sees why with their text kept, and the next save renews and succeeds.
    @Test(.serialized, arguments: SiteKind.allCases, ["503", "429"])
    func tokenEndpointTroubleKeepsTheSessionAndIsTriedAgain(on kind: SiteKind, status: String) throws {
        let site = try open(kind)
        try restartTenant(site, ["DEV_TENANT_ACCESS_TOKEN_SECONDS": "30"])  // every save renews first
        defer { try? restartTenant(site) }
        let browser = site.browser()
        try browser.logIn(site, as: DemoUser.random)
        try restartTenant(site, ["DEV_TENANT_ACCESS_TOKEN_SECONDS": "30", "DEV_TENANT_TOKEN_FAIL_STATUS": status])
        let failed = try submit(site, browser, "save", "Not lost")
        #expect(failed.status == 503)
        #expect(failed.body.contains("You’re logged in!"))
        #expect(failed.body.contains("Auth0 is busy or having trouble"))
        #expect(field(failed) == "Not lost")
        #expect(!failed.headers("set-cookie").contains { $0.hasPrefix("mds=;") })  // not logged out
        #expect(try home(site, browser).body.contains("You’re logged in!"))
        try restartTenant(site, ["DEV_TENANT_ACCESS_TOKEN_SECONDS": "30"])
        let saved = try submit(site, browser, "save", "Saved on the second try")
        #expect(saved.status == 303)
        #expect(field(try home(site, browser)) == "Saved on the second try")
    }

    @Test(arguments: SiteKind.allCases)
    func theAccessTokenTravelsOnlyToSaves(on kind: SiteKind) throws {
        let (site, browser) = try loggedIn(kind, as: DemoUser.random)
        #expect(browser.paths(of: "mds") == ["/"])
        #expect(browser.paths(of: "mda") == ["/affirmation"])
        let pageView = try #require(browser.cookieHeader(for: site.baseURL + "/"))
        #expect(pageView.contains("mds=") && !pageView.contains("mda="))
        #expect(pageView.utf8.count < 800)  // profile, refresh token, metadata: no bearer token
        #expect(try browser.cookieHeader(for: site.baseURL + "/affirmation")?.contains("mda=") == true)
        #expect(browser.cookieHeader(for: site.baseURL + "/affirmations")?.contains("mda=") == false)
        // The page works on the session cookie alone; a save uses the token it was given at login.
        #expect(try home(site, browser).body.contains("You’re logged in!"))
        let renewals = try tokenRenewals(site)
        #expect(try submit(site, browser, "save", "Token from login").status == 303)
        #expect(try tokenRenewals(site) == renewals)
        #expect(field(try home(site, browser)) == "Token from login")
        #expect(try submit(site, browser, "save", "").status == 303)
    }

    @Test(arguments: SiteKind.allCases)
    func aLostAccessTokenIsRenewedWithTheRefreshToken(on kind: SiteKind) throws {
        let (site, browser) = try loggedIn(kind, as: DemoUser.random)
        browser.forget("mda")
        let renewals = try tokenRenewals(site)
        #expect(try submit(site, browser, "save", "After losing the token").status == 303)
        #expect(try tokenRenewals(site) == renewals + 1)
        #expect(browser.paths(of: "mda") == ["/affirmation"])  // the new token is kept
        #expect(field(try home(site, browser)) == "After losing the token")
        #expect(try submit(site, browser, "save", "").status == 303)
        #expect(try tokenRenewals(site) == renewals + 1)
    }

    @Test(arguments: SiteKind.allCases)
    func anotherPersonsAccessTokenIsNeverUsed(on kind: SiteKind) throws {
        let site = try open(kind)
        let skippy = site.browser()
        try skippy.logIn(site, as: DemoUser.skippy)
        let random = site.browser()
        try random.logIn(site, as: DemoUser.random)
        random.setCookie("mda", try #require(skippy.cookies["mda"]), path: "/affirmation")
        let renewals = try tokenRenewals(site)
        #expect(try submit(site, random, "save", "Mine, not Skippys").status == 303)
        #expect(try tokenRenewals(site) == renewals + 1)  // the planted token was ignored, not used
        #expect(field(try home(site, random)) == "Mine, not Skippys")
        #expect(field(try home(site, skippy)) == "Believe in yourself!")
        #expect(try submit(site, random, "save", "").status == 303)
    }

    @Test(arguments: SiteKind.allCases)
    func aSaveWithAnExpiredSessionCompletesAfterLoggingInAgain(on kind: SiteKind) throws {
        let (site, browser) = try loggedIn(kind, as: DemoUser.random)
        let csrf = try #require(TestClient.hiddenField("csrf", in: try home(site, browser).body))
        // The session cookie is gone (expired) while the page stayed open; the tenant still knows them.
        let noSession = site.browser()
        for (name, value) in browser.cookies where name == "devtenant_sso" { noSession.setCookie(name, value) }
        let answer = try noSession.post(
            site.baseURL + "/affirmation",
            form: [("csrf", csrf), ("affirmation", "Saved after login"), ("action", "save")],
            headers: [("Origin", site.baseURL)])
        #expect(answer.status == 303)
        let authorize = try #require(answer.header("location"))
        #expect(authorize.hasPrefix(site.tenantURL + "/authorize?"))
        let callback = try noSession.signIn(
            at: authorize, email: DemoUser.random.email, password: DemoUser.random.password)
        #expect(try noSession.get(callback).status == 302)
        let page = try home(site, noSession)
        #expect(field(page) == "Saved after login")
        #expect(page.body.contains("Affirmation saved."))
        #expect(try submit(site, noSession, "save", "").status == 303)
    }

    @Test(arguments: SiteKind.allCases)
    func aPostFromAnotherSiteIsRefused(on kind: SiteKind) throws {
        let (site, browser) = try loggedIn(kind, as: DemoUser.random)
        let csrf = try #require(TestClient.hiddenField("csrf", in: try home(site, browser).body))
        for headers in [[("Origin", "https://evil.example")], [("Sec-Fetch-Site", "cross-site")], []] {
            let answer = try browser.post(
                site.baseURL + "/affirmation", form: [("csrf", csrf), ("affirmation", "pwned"), ("action", "save")],
                headers: headers)
            #expect(answer.status == 403)
        }
        let calls = try site.tenantRequests(path: "/", status: nil)
        for form in [[("affirmation", "pwned"), ("action", "save")], [("csrf", "wrong"), ("affirmation", "pwned")]] {
            let answer = try browser.post(
                site.baseURL + "/affirmation", form: form, headers: [("Origin", site.baseURL)])
            #expect(answer.status == 403)  // no token, or not the session's
        }
        #expect(try site.tenantRequests(path: "/", status: nil) == calls)
        #expect(field(try home(site, browser)) != "pwned")
    }
}
