import Foundation
import Testing
import Web

/// "Your sessions" (issue 27, item 1) with two workers behind nginx, on the embedded ledger and
/// on Redis: two browsers of one person see each other and end each other, and a third person
/// sees and ends nothing of theirs.
@Suite(.serialized) struct SessionsPageTests {
    static let firefoxOnWindows = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0"
    static let safariOnIPhone =
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
        + "Version/17.6 Mobile/15E148 Safari/604.1"

    private func browser(_ userAgent: String, as user: (email: String, password: String), _ stack: Stack) throws
        -> TestClient
    {
        let client = TestClient()
        client.userAgent = userAgent
        try client.logIn(stack, as: user)
        return client
    }

    /// The list's page, waiting (bounded) until it says `what`: the registry's writes are queued.
    private func page(_ client: TestClient, _ stack: Stack, until what: (String) -> Bool = { _ in true }) throws
        -> String
    {
        var body = ""
        for _ in 0..<40 {
            body = try client.get(stack.baseURL + "/sessions").body
            if what(body) { break }
            usleep(50_000)
        }
        return body
    }

    /// The public ids of the sessions the page offers to log out.
    private func ids(in page: String) -> [String] {
        page.matches(of: /name="session" value="([^"]+)"/).map { String($0.output.1) }
    }

    private func post(_ client: TestClient, _ stack: Stack, _ path: String, _ fields: [(String, String)]) throws
        -> TestClient.Answer
    {
        let csrf = try #require(TestClient.hiddenField("csrf", in: try client.get(stack.baseURL + "/").body))
        return try client.post(
            stack.baseURL + path, form: [("csrf", csrf)] + fields, headers: [("Origin", stack.baseURL)])
    }

    @Test(arguments: LedgerBackend.allCases)
    func twoBrowsersOfOnePersonSeeAndEndEachOtherAndNobodyElseCan(_ backend: LedgerBackend) throws {
        let (stack, redis) = try backend.stack()
        defer { stack.stop(); redis?.stop() }
        let laptop = try browser(Self.firefoxOnWindows, as: DemoUser.skippy, stack)
        let phone = try browser(Self.safariOnIPhone, as: DemoUser.skippy, stack)
        let stranger = try browser(Self.firefoxOnWindows, as: DemoUser.random, stack)

        #expect(try laptop.get(stack.baseURL + "/").body.contains(#"<a href="/sessions">Your sessions</a>"#))
        let list = try page(laptop, stack) { $0.contains("Safari on iPhone") }
        #expect(
            list.contains("Firefox on Windows") && list.contains("This device") && list.contains("Safari on iPhone"))
        #expect(list.contains("within the last 5 minutes") && list.contains("Began "))
        #expect(!list.contains(#"name="session" value="\#(try #require(laptop.cookies["mds"]))"#))
        let phoneID = try #require(ids(in: list).first, "the phone can be logged out from the laptop")
        #expect(ids(in: list).count == 1, "this device has no button of its own")

        // The stranger lists only their own session, and cannot end the laptop's phone.
        let strangers = try page(stranger, stack)
        #expect(!strangers.contains("Safari on iPhone") && ids(in: strangers).isEmpty)
        let attempt = try post(stranger, stack, "/sessions/end", [("session", phoneID)])
        #expect(attempt.status == 303)
        #expect(try stranger.get(stack.baseURL + "/sessions").body.contains("That session had already ended."))
        usleep(1_000_000)
        #expect(try phone.get(stack.baseURL + "/me").status == 200, "another person ended nothing")

        // The laptop ends the phone: every worker refuses it within a second.
        let ended = try post(laptop, stack, "/sessions/end", [("session", phoneID)])
        #expect(ended.status == 303 && ended.header("location") == "/sessions")
        let after = try laptop.get(stack.baseURL + "/sessions").body
        #expect(after.contains("Logged out Safari on iPhone.") && ids(in: after).isEmpty)
        usleep(1_000_000)
        try expectEachWorkerRefuses(phone, stack)
        #expect(try laptop.get(stack.baseURL + "/me").status == 200)
        #expect(try stranger.get(stack.baseURL + "/me").status == 200)
    }

    @Test(arguments: LedgerBackend.allCases)
    func logOutEverywhereElseKeepsOnlyThisSession(_ backend: LedgerBackend) throws {
        let (stack, redis) = try backend.stack()
        defer { stack.stop(); redis?.stop() }
        let laptop = try browser(Self.firefoxOnWindows, as: DemoUser.skippy, stack)
        let phone = try browser(Self.safariOnIPhone, as: DemoUser.skippy, stack)
        let tablet = try browser(Self.safariOnIPhone, as: DemoUser.skippy, stack)
        let stranger = try browser(Self.firefoxOnWindows, as: DemoUser.random, stack)
        _ = try page(phone, stack) { ids(in: $0).count == 2 }
        let answer = try post(phone, stack, "/sessions/end-others", [])
        #expect(answer.status == 303)
        let list = try phone.get(stack.baseURL + "/sessions").body
        #expect(list.contains("Logged out everywhere else.") && list.contains("You are not logged in anywhere else."))
        // Review 3, item 3: again within the minute ends nothing more and says so.
        #expect(try post(phone, stack, "/sessions/end-others", []).status == 303)
        #expect(try phone.get(stack.baseURL + "/sessions").body.contains("less than a minute ago"))
        usleep(1_000_000)
        try expectEachWorkerRefuses(laptop, stack)
        try expectEachWorkerRefuses(tablet, stack)
        #expect(try phone.get(stack.baseURL + "/me").status == 200)
        #expect(try stranger.get(stack.baseURL + "/me").status == 200)
        // A later login of the same person is not caught by it.
        let later = try browser(Self.firefoxOnWindows, as: DemoUser.skippy, stack)
        #expect(try later.get(stack.baseURL + "/me").status == 200)
    }

    @Test func theListIsInChineseToo() throws {
        let stack = try Stack()
        defer { stack.stop() }
        let laptop = try browser(Self.firefoxOnWindows, as: DemoUser.skippy, stack)
        _ = try browser(Self.safariOnIPhone, as: DemoUser.skippy, stack)
        laptop.setCookie("lang", "zh")
        let list = try page(laptop, stack) { $0.contains("iPhone 上的 Safari") }
        #expect(list.contains("你的会话") && list.contains("iPhone 上的 Safari") && list.contains("此设备"))
        #expect(list.contains("注销其他所有会话") && list.contains("（UTC）"))
    }

    @Test func aLoggedOutVisitorIsSentToLogInAndBackToTheList() throws {
        let stack = try Stack()
        defer { stack.stop() }
        let visitor = TestClient()
        let answer = try visitor.get(stack.baseURL + "/sessions")
        #expect(answer.status == 302 && (answer.header("location") ?? "").hasPrefix(stack.tenantURL + "/authorize?"))
        let forged = try visitor.post(
            stack.baseURL + "/sessions/end-others", form: [("csrf", "x")], headers: [("Origin", stack.baseURL)])
        #expect(forged.status == 303 && forged.header("location") == "/")
    }
}
