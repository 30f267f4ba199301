import Foundation
import Testing
import Web

/// Issue 39 in Chromium: the example mini apps as a person meets them, in English and in
/// Chinese: a person the rules allow reads the app; one they keep out reads the refusal page,
/// on which axe finds nothing.
@Suite(.serialized) final class MiniAppBrowserTests: StackInBrowser {
    override class func makeStack() throws -> Stack { try Stack(miniAppsFile: Stack.exampleMiniApps) }

    private func logIn(_ user: (email: String, password: String), at page: String) throws {
        try browser.open(stack.baseURL + page)
        try waitForTenantLogin()
        try submitTenantLogin(user)
        // A person's first login to the application asks their consent (each test's tenant is new).
        try browser.wait("the consent screen") { try browser.findAll("button[value=accept]").count == 1 }
        try browser.click("button[value=accept]")
    }

    @Test(arguments: ["en", "zh"]) func aRefusedPersonReadsWhyInTheirLanguage(language: String) throws {
        let words =
            language == "en"
            ? (title: "You cannot open Announcements", says: "Your account has not been given access to Announcements.")
            : (title: "你无法打开「公告」", says: "你的帐户尚未获得「公告」的访问权限。")
        do {
            try browser.open(stack.baseURL + "/lang/" + language)
            try logIn(DemoUser.random, at: "/announcements/")
            try browser.wait("the refusal page") { try browser.text("h1") == words.title }
            #expect(try browser.currentURL() == stack.baseURL + "/announcements/")
            #expect(try browser.text(".notice") == words.says)
            try browser.screenshot("mini-app-refused-\(language)")
            let found = try violations()
            #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
            // The way on is the product's own page, where the person is still logged in.
            try browser.click("a.button")
            try browser.wait("the logged-in page") { try browser.currentURL() == stack.baseURL + "/" }
            #expect(try browser.text("h1") == (language == "en" ? "You’re logged in!" : "你已登录！"))
        } catch {
            browser.recordFailure("mini-app-refused-\(language)")
            throw error
        }
    }

    /// The app shows what its API answered it with the person's token.
    @Test func anAllowedPersonIsTakenStraightToTheAppAfterLoggingIn() throws {
        do {
            try logIn(DemoUser.skippy, at: "/announcements/today?lang=en&x=1")
            try browser.wait("the app") { try browser.currentURL().hasSuffix("/announcements/today?lang=en&x=1") }
            let page = try browser.text("body")
            #expect(
                page.hasPrefix("Announcements for auth0|6489e0a1c2b3d4e5f6a7b8ca (skippy@example.com)\n"), "\(page)")
            #expect(page.contains("API 200: ") && page.contains("\"api\": \"Announcements API\""), "\(page)")
        } catch {
            browser.recordFailure("mini-app-allowed")
            throw error
        }
    }

    /// Account needs a second factor: the tenant's one-time-code page, in the person's language,
    /// refuses a wrong code and, given the right one, brings them back to the page they asked for;
    /// axe finds nothing on it.
    @Test(arguments: ["en", "zh"]) func theSecondFactorIsAskedInTheirLanguage(language: String) throws {
        let heading = language == "en" ? "Verify your identity" : "验证你的身份"
        do {
            try browser.open(stack.baseURL + "/lang/" + language)
            try logIn(DemoUser.skippy, at: "/login")
            try browser.wait("the logged-in page") { try browser.currentURL() == stack.baseURL + "/" }
            try browser.open(stack.baseURL + "/account/profile?x=1")
            try browser.wait("the code page") { try browser.findAll("form[action='/u/mfa']").count == 1 }
            #expect(try browser.text("h1") == heading)
            try browser.screenshot("mini-app-mfa-\(language)")
            let found = try violations()
            #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
            try browser.type("000000", into: "#code")
            try browser.click("button[value=verify]")
            try browser.wait("the wrong code's message") { try browser.findAll(".error").count == 1 }
            let code = try Stack.check(Stack.repoRoot + "/scripts/demo-totp", [DemoUser.skippy.email])
            try browser.type(code.trimmingWhitespace(), into: "#code")
            try browser.click("button[value=verify]")
            try browser.wait("the app") { try browser.currentURL() == stack.baseURL + "/account/profile?x=1" }
            #expect(try browser.text("body").hasPrefix("Account for auth0|6489e0a1c2b3d4e5f6a7b8ca"))
        } catch {
            browser.recordFailure("mini-app-mfa-\(language)")
            throw error
        }
    }
}
