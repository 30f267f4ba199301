import Foundation
import Testing
import Web

/// "Your sessions" in real browsers (Chromium), in English and Chinese: two browsers of one
/// person, each ending the other from the list, a third person who sees nothing of theirs, and
/// no axe violation on the new screen (screenshots in `test-artifacts/browser/sessions-*`).
@Suite(.serialized) final class SessionsBrowserTests: StackInBrowser {
    struct Run: Sendable, CustomStringConvertible {
        let language, acceptLanguage, link, thisDevice, other, endedOne, endedOthers, welcome: String
        var description: String { language }
    }
    static let runs = [
        Run(
            language: "en", acceptLanguage: "en-US,en", link: "Your sessions", thisDevice: "This device",
            other: "Chrome on Linux", endedOne: "Logged out Chrome on Linux.",
            endedOthers: "Logged out everywhere else.",
            welcome: "Metadata demo"),
        Run(
            language: "zh", acceptLanguage: "zh-CN,zh", link: "你的会话", thisDevice: "此设备", other: "Linux 上的 Chrome",
            endedOne: "已注销 Linux 上的 Chrome。", endedOthers: "已注销其他所有会话。", welcome: "Metadata demo"),
    ]

    /// Logs `user` in on `driver` from the first screen: through the tenant's form and consent
    /// when it asks, straight back when the tenant's own session answers.
    private func logIn(_ driver: WebDriver, _ user: (email: String, password: String)) throws {
        let loggedIn = { !(try driver.findAll("a[href='/sessions']").isEmpty) }
        try driver.open(stack.baseURL + "/")
        try driver.click("a.button")
        try driver.wait("the tenant's login page or the logged-in page") {
            try loggedIn() || !(try driver.findAll("#email").isEmpty)
        }
        if try !loggedIn() {
            try driver.type(user.email, into: "#email")
            try driver.type(user.password, into: "#password")
            try driver.click("button[value=login]")
            try driver.wait("the consent or logged-in page") {
                try loggedIn() || !(try driver.findAll("button[value=accept]").isEmpty)
            }
            if try !loggedIn() { try driver.click("button[value=accept]") }
        }
        try driver.wait("the logged-in page", loggedIn)
    }

    private func axeViolations(_ driver: WebDriver) throws -> [String] {
        let path = try Stack.check(Stack.repoRoot + "/scripts/fetch-axe", []).split(separator: "\n").last.map(
            String.init)
        let source = try String(contentsOfFile: try #require(path), encoding: .utf8)
        try driver.execute(source + "\n;return true;")
        let answer = try driver.execute(
            """
            return axe.run(document, {resultTypes: ['violations']}).then(r => r.violations.map(v =>
              v.id + ' (' + v.impact + '): ' + v.nodes.map(n => n.target.join(' ')).join(', ')));
            """)
        return answer.array?.compactMap(\.string) ?? ["axe gave no list"]
    }

    @Test(arguments: runs) func twoBrowsersEndEachOtherFromTheList(_ run: Run) throws {
        let laptop = try WebDriver(acceptLanguage: run.acceptLanguage)
        let phone = try WebDriver(acceptLanguage: run.acceptLanguage)
        do {
            try logIn(laptop, DemoUser.skippy)
            try logIn(phone, DemoUser.skippy)
            try laptop.click("a[href='/sessions']")
            try laptop.wait("both sessions listed") { try laptop.findAll("li.session").count == 2 }
            #expect(try laptop.text("h1") == run.link)
            #expect(try laptop.text("li.session .this-device") == run.thisDevice)
            #expect(try laptop.text("ul.sessions").contains(run.other))
            try laptop.screenshot("sessions-\(run.language)")
            let found = try axeViolations(laptop)
            #expect(found.isEmpty, "\(found.joined(separator: "\n"))")

            // The laptop logs the phone out; the phone's next page is the first screen.
            try laptop.click("form[action='/sessions/end'] button")
            try laptop.wait("the notice") { try laptop.text(".notice") == run.endedOne }
            #expect(try laptop.findAll("li.session").count == 1)
            usleep(1_000_000)
            try phone.open(stack.baseURL + "/")
            #expect(try phone.findAll("a[href='/sessions']").isEmpty, "the phone is logged out")

            // The phone logs in again and ends everything else: the laptop is logged out.
            try logIn(phone, DemoUser.skippy)
            try phone.open(stack.baseURL + "/sessions")
            try phone.wait("the laptop listed") { try phone.findAll("li.session").count == 2 }
            try phone.click("form[action='/sessions/end-others'] button")
            try phone.wait("the notice") { try phone.text(".notice") == run.endedOthers }
            usleep(1_000_000)
            // (Its next login would pass without a password: the tenant's own session goes on.)
            try laptop.open(stack.baseURL + "/me")
            #expect(try laptop.source().contains("not_logged_in"), "the laptop is logged out")

            // A third person, in a browser of their own, sees only their own session.
            let stranger = try WebDriver(acceptLanguage: run.acceptLanguage)
            try logIn(stranger, DemoUser.random)
            try stranger.open(stack.baseURL + "/sessions")
            #expect(try stranger.findAll("li.session").count == 1)
            #expect(try stranger.findAll("form[action='/sessions/end']").isEmpty)
        } catch {
            laptop.recordFailure("sessions-laptop-\(run.language)")
            phone.recordFailure("sessions-phone-\(run.language)")
            throw error
        }
    }
}
