import Foundation
import Testing
import Web

/// Issue 39: the example mini apps behind the real nginx, each asking the real worker's
/// `/auth/check/NAME` before every request, with `make run`'s file and sample programs (PyJWT
/// verifying each app's own identity assertion).
@Suite(.serialized) final class MiniAppTests {
    let stack: Stack
    init() throws { stack = try Stack(workers: 2, miniAppsFile: Stack.exampleMiniApps) }
    deinit { stack.stop() }

    private let skippy = MiniAppPage.loggedIn("skippy@example.com")
    private let random = MiniAppPage.loggedIn("randomuser@example.com")

    private func stepUp(_ browser: TestClient, _ email: String, at page: String, code: String? = nil) throws
        -> TestClient.Answer
    {
        try browser.stepUp(stack, email, at: page, code: code)
    }

    /// Account needs a second factor (the multi-factor policy, within 10 minutes): the check
    /// sends the person to log in asking for it; a wrong code is refused on the tenant's page,
    /// the right one brings them back to the page they asked for; then it is not asked again.
    @Test func theAccountAppAsksForASecondFactorOnce() throws {
        let browser = TestClient()
        try browser.logIn(stack, as: DemoUser.skippy)
        let first = try browser.get(stack.baseURL + "/account/orders?page=2")
        #expect(first.status == 302)
        let login = try #require(first.header("location"))
        #expect(
            login == stack.baseURL + "/login?returnTo=%2Faccount%2Forders%3Fpage%3D2&max_age=600&acr_values="
                + "http%3A%2F%2Fschemas.openid.net%2Fpape%2Fpolicies%2F2007%2F06%2Fmulti-factor")
        let authorize = try #require(try browser.get(login).header("location"))
        #expect(authorize.contains("acr_values=http") && authorize.contains("max_age=600"))
        let tenant = authorize.components(separatedBy: "/authorize")[0]
        let codePage = try browser.get(authorize)
        #expect(codePage.status == 200 && codePage.body.contains("action=\"/u/mfa\""), "\(codePage.body)")
        let wrong = try browser.passCode(codePage, tenant: tenant, email: DemoUser.skippy.email, code: "000000")
        #expect(wrong.status == 400 && wrong.body.contains("Wrong code"))
        let right = try browser.passCode(wrong, tenant: tenant, email: DemoUser.skippy.email)
        let callback = try #require(right.header("location"), "\(right.status) \(right.body)")
        #expect(try browser.get(callback).header("location") == "/account/orders?page=2")
        let account = try browser.get(stack.baseURL + "/account/orders?page=2")
        #expect(account.status == 200 && MiniAppPage(account.body).signedIn == skippy, "\(account.body)")
        // Remembered for the app's max_age: the next pages open at once.
        #expect(try browser.get(stack.baseURL + "/account/").status == 200)
        #expect(try browser.get(stack.baseURL + "/announcements/").status == 200)
        #expect(try stack.log("dev-tenant").components(separatedBy: "multi-factor step passed").count == 2)
    }

    /// Issue 49, I1: a code that passed is spent, as Auth0 accepts each once: a second browser
    /// typing it in its window is told it is wrong, and passes with the person's next code.
    @Test func aOneTimeCodePassesOnce() throws {
        let code = try OneTimeCodes.fresh(for: DemoUser.skippy.email, at: stack.tenantURL)
        let first = TestClient()
        try first.logIn(stack, as: DemoUser.skippy)
        #expect(try stepUp(first, DemoUser.skippy.email, at: "/account/", code: code).status == 200)
        let second = TestClient()
        try second.logIn(stack, as: DemoUser.skippy)
        let asked = try second.get(stack.baseURL + "/account/")
        let login = try #require(asked.header("location"))
        let authorize = try #require(try second.get(login).header("location"))
        let tenant = authorize.components(separatedBy: "/authorize")[0]
        let again = try second.passCode(
            try second.get(authorize), tenant: tenant, email: DemoUser.skippy.email, code: code)
        #expect(again.status == 400 && again.body.contains("Wrong code"), "\(again.status)")
        let next = try second.passCode(again, tenant: tenant, email: DemoUser.skippy.email)
        #expect(next.status == 302, "\(next.status) \(next.body)")
    }

    /// Each app calls its own API as the person: the API verified the token the check obtained
    /// for it (Multi-Resource Refresh Token at the dev tenant), its audience and its scope.
    @Test func aPersonTheRulesAllowEntersEachAppAndItsAPIAnswersThem() throws {
        let browser = TestClient()
        try browser.logIn(stack, as: DemoUser.skippy)
        // Account first: its step-up is a new login, whose tokens are its own.
        let account = try stepUp(browser, DemoUser.skippy.email, at: "/account/settings?tab=2")
        let accountPage = MiniAppPage(account.body)
        #expect(account.status == 200 && accountPage.title == "Account" && accountPage.signedIn == skippy)
        #expect(accountPage.details["Service"] == "Account API", "\(account.body)")
        #expect(accountPage.details["Account ID"] == "auth0|6489e0a1c2b3d4e5f6a7b8ca")
        #expect(accountPage.details["Permissions"] == "read:account")
        #expect(accountPage.details["Signed in with a second factor"] == "Yes")
        let announcements = try browser.get(stack.baseURL + "/announcements/")
        let page = MiniAppPage(announcements.body)
        #expect(announcements.status == 200 && page.title == "Announcements" && page.signedIn == skippy)
        #expect(
            page.announcements == ["Log out everywhere else", "Your affirmation follows you"], "\(announcements.body)")
        // What the API verified: the token the check obtained for it, the person's and its permission.
        let token = try stack.checkHeader("X-Auth-Access-Token", for: browser, check: "/auth/check/announcements")
        let claims = try #require(
            Base64URL.decode(String(token.split(separator: ".")[1])).flatMap { JSONValue.parse($0) })
        #expect(claims["sub"]?.string == "auth0|6489e0a1c2b3d4e5f6a7b8ca")
        #expect(claims["permissions"] == .array(["read:announcements"]))
        // One exchange per login and app at the tenant; later visits use the kept tokens.
        func exchanges() throws -> Int {
            try stack.log("dev-tenant").components(separatedBy: "multi-resource token issued").count - 1
        }
        #expect(try exchanges() == 2)
        for page in ["/announcements/again", "/account/", "/announcements/", "/account/x"] {
            #expect(try browser.get(stack.baseURL + page).status == 200, "\(page)")
        }
        #expect(try exchanges() == 2)
    }

    @Test func aVisitorLogsInAndComesBackToTheAppsPage() throws {
        let browser = TestClient()
        let first = try browser.get(stack.baseURL + "/announcements/latest?n=3&all=1")
        #expect(first.status == 302)
        let login = try #require(first.header("location"))
        #expect(login == stack.baseURL + "/login?returnTo=%2Fannouncements%2Flatest%3Fn%3D3%26all%3D1")
        let authorize = try #require(try browser.get(login).header("location"))
        let callback = try browser.get(
            try browser.signIn(at: authorize, email: DemoUser.skippy.email, password: DemoUser.skippy.password))
        #expect(callback.header("location") == "/announcements/latest?n=3&all=1")
    }

    /// randomuser's `app_metadata` does not turn the announcement on: Announcements refuses them
    /// with the page in their language, saying what is missing and no more, and the worker's log
    /// names the rule; Account (a verified email) lets them in.
    @Test func aPersonTheRulesKeepOutGetsTheRefusalInTheirLanguage() throws {
        let browser = TestClient()
        try browser.logIn(stack, as: DemoUser.random)
        let english = try browser.get(stack.baseURL + "/announcements/")
        #expect(english.status == 403)
        #expect(english.header("content-type")?.hasPrefix("text/html") == true)
        #expect(english.body.contains("You cannot open Announcements"))
        #expect(english.body.contains("Your account has not been given access to Announcements."))
        #expect(!english.body.contains("display_announcement"), "the rule's key is the operator's, not the page's")
        let chinese = try browser.get(stack.baseURL + "/announcements/", headers: [("Accept-Language", "zh-CN,zh")])
        #expect(chinese.status == 403 && chinese.body.contains("你的帐户尚未获得「公告」的访问权限。"))
        let logs = ["worker", "worker-2"].map { stack.logForAMessage($0) }.joined()
        #expect(
            logs.contains("mini_app_refused") && logs.contains("app=announcements")
                && logs.contains("rule=app_metadata_flag:display_announcement"), "\(logs.suffix(2000))")
        let account = try stepUp(browser, DemoUser.random.email, at: "/account/")
        #expect(account.status == 200 && MiniAppPage(account.body).signedIn == random)
    }

    /// What the program on `socket` of the run folder answers a GET with `header`: its text, a
    /// space and its status.
    private func ask(_ socket: String, _ header: String) throws -> String {
        try Stack.check(
            "/usr/bin/curl",
            ["-s", "-w", " %{http_code}", "--unix-socket", stack.runDir + "/" + socket, "-H", header, "http://app/"])
    }

    /// The reason the example app on `socket` last logged for refusing a request.
    private func refusal(_ socket: String) throws -> String {
        let log = try stack.log(socket.replacingOccurrences(of: ".sock", with: ""))
        return String(log.split(separator: "\n").last { $0.hasPrefix("mini_app: refused a request: ") } ?? "")
    }

    /// The assertion each check signs is for its own app: Account's program refuses one made
    /// for Announcements.
    @Test func anAssertionOrATokenForOneAppIsRefusedByAnother() throws {
        let browser = TestClient()
        try browser.logIn(stack, as: DemoUser.skippy)
        let assertion = try stack.checkHeader("X-Auth-Assertion", for: browser, check: "/auth/check/announcements")
        let refused = try ask("mini-account.sock", "X-Auth-Assertion: \(assertion)")
        #expect(refused.hasSuffix(" 401") && refused.contains("Who you are could not be confirmed"), "\(refused)")
        let reason = try refusal("mini-account.sock")
        #expect(
            reason.contains("identity assertion refused: ") && reason.lowercased().contains("audience"), "\(reason)")
        let opened = try ask("mini-announcements.sock", "X-Auth-Assertion: \(assertion)")
        #expect(opened.hasSuffix(" 200") && MiniAppPage(opened).title == "Announcements", "\(opened)")

        // Likewise the access token: the check hands Announcements' token to nginx for that app
        // alone, and Account's API refuses it as a real API would (its audience).
        let token = try stack.checkHeader("X-Auth-Access-Token", for: browser, check: "/auth/check/announcements")
        let refusedByAccount = try ask("api-account.sock", "Authorization: Bearer \(token)")
        #expect(refusedByAccount.hasSuffix(" 401") && refusedByAccount.contains("invalid_token"), "\(refusedByAccount)")
        #expect(try ask("api-announcements.sock", "Authorization: Bearer \(token)").hasSuffix(" 200"))
        // Never in a log line: not the worker's, not nginx's.
        let logs = try ["worker", "worker-2", "nginx"].map { try stack.log($0) }.joined()
        #expect(!logs.contains(token) && !logs.contains(String(token.prefix(40))))
    }

    /// Logging out ends every app's access at once, on every worker, for every copy of the cookie.
    @Test func loggingOutEndsEveryAppsAccessEverywhere() throws {
        let browser = TestClient()
        let home = try browser.logIn(stack, as: DemoUser.skippy)
        #expect(home.status == 303 || home.status == 302)
        let copy = browser.copy()
        for _ in 0..<4 { #expect(try copy.get(stack.baseURL + "/announcements/").status == 200) }
        let page = try browser.get(stack.baseURL + "/")
        let csrf = try #require(TestClient.hiddenField("csrf", in: page.body))
        let logout = try browser.post(
            stack.baseURL + "/logout", form: [("csrf", csrf)], headers: [("Origin", stack.baseURL)])
        #expect(logout.status == 303)
        usleep(1_000_000)  // the promise: every worker refuses it within a second
        // nginx's upstream sends each request to either worker in turn: both refuse the copy.
        for app in ["/announcements/", "/account/", "/announcements/", "/account/"] {
            let answer = try copy.get(stack.baseURL + app)
            #expect(answer.status == 302 && answer.header("location")?.contains("/login?returnTo=") == true, "\(app)")
        }
    }

    /// "Log out everywhere else" and the provider's back-channel logout (an administrator deletes
    /// the person's sessions) end every app's access on every worker within a second, as logging
    /// out does: each request asks the check, and the check asks the session ledger.
    @Test func yourSessionsAndBackChannelLogoutEndEveryAppsAccess() throws {
        let laptop = TestClient()
        try laptop.logIn(stack, as: DemoUser.skippy)
        let phone = TestClient()
        try phone.logIn(stack, as: DemoUser.skippy)
        for _ in 0..<2 { #expect(try phone.get(stack.baseURL + "/announcements/").status == 200) }
        let csrf = try #require(TestClient.hiddenField("csrf", in: try laptop.get(stack.baseURL + "/").body))
        let ended = try laptop.post(
            stack.baseURL + "/sessions/end-others", form: [("csrf", csrf)], headers: [("Origin", stack.baseURL)])
        #expect(ended.status == 303)
        usleep(1_000_000)  // the promise: every worker refuses it within a second
        for _ in 0..<2 { #expect(try phone.get(stack.baseURL + "/announcements/").status == 302) }
        #expect(try laptop.get(stack.baseURL + "/announcements/").status == 200, "this browser stays")

        #expect(try stack.deleteTenantSessions(of: "auth0|6489e0a1c2b3d4e5f6a7b8ca") == 202)
        usleep(1_000_000)
        for _ in 0..<2 { #expect(try laptop.get(stack.baseURL + "/announcements/").status == 302) }
    }
}
