import Foundation
import Testing
import Web

/// Every screen of the product and the dev tenant, in a real browser: axe-core finds no
/// violation, the whole flow works with the keyboard alone with a visible focus ring, and the
/// pages fit a 360 px screen and a 200% zoom (screenshots in `test-artifacts/browser/`).
/// axe.min.js is axe-core from PyPI's axe-selenium-python (`scripts/fetch-axe`).
@Suite(.serialized) final class AccessibilityTests: StackInBrowser {
    private func check(_ screen: String, _ found: inout [String]) throws {
        try browser.screenshot("a11y-\(screen)")
        found += try violations().map { "\(screen): \($0)" }
    }

    private func heading() throws -> String { try browser.text("h1") }

    @Test func axeFindsNoViolationOnAnyScreen() throws {
        var found: [String] = []
        do {
            try browser.open(stack.baseURL + "/")
            try check("first-screen", &found)
            try browser.click("a.button")
            try waitForTenantLogin()
            try check("tenant-login", &found)
            try submitTenantLogin(("wrong@example.com", "nope"))
            try browser.wait("the login error") { try browser.text(".error").contains("Wrong") }
            try check("tenant-login-error", &found)
            try submitTenantLogin(DemoUser.skippy)
            try browser.wait("the consent screen") { try heading() == "Authorize App" }
            try check("tenant-consent", &found)
            try browser.click("button[value=decline]")
            try browser.wait("the login cancelled page") { try heading() == "Login cancelled" }
            try check("login-cancelled", &found)
            try browser.click("a.button")
            try browser.wait("the consent screen again") { try heading() == "Authorize App" }
            try browser.click("button[value=accept]")
            try browser.wait("the logged-in page") { try heading() == "You’re logged in!" }
            try check("logged-in", &found)
            try browser.type("Keep going!", into: "#affirmation")
            try browser.click("button[value=save]")
            try browser.wait("the saved notice") { try browser.text(".notice").contains("saved") }
            try check("saved", &found)
            try browser.open(stack.baseURL + "/logout")
            try check("confirm-logout", &found)
            try browser.click("form[action='/logout'] button")
            try browser.wait("the logged-out page") { try heading() == "You’re logged out." }
            try check("logged-out", &found)
            try browser.open(stack.baseURL + "/no-such-page")
            try check("not-found", &found)
            try browser.open(stack.tenantURL + "/authorize")
            try check("tenant-message", &found)
            // In Chinese, through the switch: the first screen, logged in, a problem page.
            try browser.open(stack.baseURL + "/")
            try browser.click("nav.languages a")
            try browser.wait("the Chinese first screen") { try browser.text("a.button") == "登录" }
            try check("zh-first-screen", &found)
            try browser.click("a.button")
            try waitForTenantLogin()
            try submitTenantLogin(DemoUser.skippy)
            try browser.wait("the logged-in page in Chinese") { try heading() == "你已登录！" }
            try check("zh-logged-in", &found)
            try browser.open(stack.baseURL + "/logout")
            try check("zh-confirm-logout", &found)
            try browser.open(stack.baseURL + "/no-such-page")
            try check("zh-not-found", &found)
            try browser.open(stack.baseURL + "/callback?state=gone&code=x")
            try check("zh-login-expired", &found)
            try browser.open(stack.tenantURL + "/authorize?ui_locales=zh-CN")
            try check("zh-tenant-message", &found)
        } catch {
            browser.recordFailure("a11y")
            throw error
        }
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }

    /// The words of one language's run.
    struct Run: Sendable, CustomStringConvertible {
        let language: String
        let logIn, consent, accept, loggedIn, save, saved, logOut, loggedOut: String
        var description: String { language }
    }
    static let runs = [
        Run(
            language: "en", logIn: "Log in", consent: "Authorize App", accept: "Accept", loggedIn: "You’re logged in!",
            save: "Save affirmation", saved: "Affirmation saved.", logOut: "Log out", loggedOut: "You’re logged out."),
        Run(
            language: "zh", logIn: "登录", consent: "授权应用程序", accept: "接受", loggedIn: "你已登录！", save: "保存申明",
            saved: "申明已保存。", logOut: "注销", loggedOut: "你已注销。"),
    ]

    /// Log in, accept, edit and save, follow the announcement, log out: Tab and Enter only (the
    /// Chinese run reaches Chinese through the switch, by keyboard too), wherever the focus lands
    /// a ring shows it, and every screen is saved and has no axe violation.
    @Test(arguments: runs) func theWholeFlowWorksWithTheKeyboardAlone(_ run: Run) throws {
        var found: [String] = []
        func tab(to target: String) throws {
            try browser.tab(to: target)
            let focus = try browser.focus()
            #expect(focus.ringShows, "no focus ring on \(focus.description)")
        }
        func screen(_ name: String) throws { try check("keyboard-\(run.language)-\(name)", &found) }
        do {
            try browser.open(stack.baseURL + "/")
            if run.language == "zh" {
                try tab(to: "a \"中文")
                try browser.press(WebDriver.enter)
                try browser.wait("the Chinese first screen") { try browser.text("a.button") == run.logIn }
            }
            try screen("1-first")
            try tab(to: "\"\(run.logIn)\"")
            try browser.press(WebDriver.enter)
            try waitForTenantLogin()
            try screen("2-tenant-login")
            try tab(to: "input#email")
            try browser.press(DemoUser.skippy.email + WebDriver.tab + DemoUser.skippy.password + WebDriver.enter)
            try browser.wait("the consent screen") { try heading() == run.consent }
            try screen("3-tenant-consent")
            try tab(to: "\"\(run.accept)\"")
            try browser.press(WebDriver.enter)
            try browser.wait("the logged-in page") { try heading() == run.loggedIn }
            try screen("4-logged-in")
            try tab(to: "input#affirmation")
            let erase = String(repeating: "\u{E003}", count: 40)  // Backspace
            try browser.press("\u{E010}" + erase + "Typed with keys")  // End, then erase
            try tab(to: "\"\(run.save)\"")
            try browser.press(WebDriver.enter)
            try browser.wait("the saved notice") { try browser.text(".notice") == run.saved }
            try screen("5-saved")
            // The notice is a live region: screen readers announce it.
            #expect(try browser.attribute(".notice", "role") == "status")
            #expect(try browser.property("#affirmation", "value") == "Typed with keys")
            let windows = try browser.windows().count
            try tab(to: "a \"Tap here")
            try browser.press(WebDriver.enter)
            try browser.wait("the announcement in a new tab") { try browser.windows().count == windows + 1 }
            try tab(to: "\"\(run.logOut)\"")
            try browser.press(WebDriver.enter)
            try browser.wait("the logged-out page") { try heading() == run.loggedOut }
            try screen("6-logged-out")
        } catch {
            browser.recordFailure("a11y-keyboard-\(run.language)")
            throw error
        }
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }

    /// A browser set to Chinese gets the pages and Universal Login in Chinese without the switch.
    @Test func aChineseBrowserGetsChinesePages() throws {
        let chinese = try WebDriver(acceptLanguage: "zh-CN,zh")
        do {
            try chinese.open(stack.baseURL + "/")
            #expect(try chinese.execute("return document.documentElement.lang").string == "zh-Hans")
            #expect(try chinese.text("a.button") == "登录")
            try chinese.click("a.button")
            try chinese.wait("the tenant's login page in Chinese") { try chinese.text("h1") == "欢迎" }
            try chinese.screenshot("a11y-zh-browser-tenant-login")
        } catch {
            chinese.recordFailure("a11y-zh-browser")
            throw error
        }
    }

    /// A save that fails (Auth0 answering 429) by keyboard: the typed text stays in the field,
    /// the message is an alert (announced at once), and the page has no axe violation.
    @Test func aFailedSaveIsAnnouncedAndKeepsTheText() throws {
        do {
            try browser.open(stack.baseURL + "/login")
            try waitForTenantLogin()
            try browser.tab(to: "input#email")
            try browser.press(DemoUser.random.email + WebDriver.tab + DemoUser.random.password + WebDriver.enter)
            try browser.wait("the consent screen") { try heading() == "Authorize App" }
            try browser.tab(to: "\"Accept\"")
            try browser.press(WebDriver.enter)
            try browser.wait("the logged-in page") { try heading() == "You’re logged in!" }
            try stack.restartTenant(["DEV_TENANT_FORCE_429": "1"])
            try browser.tab(to: "input#affirmation")
            try browser.press("Not lost")
            try browser.tab(to: "\"Save affirmation\"")
            try browser.press(WebDriver.enter)
            try browser.wait("the failure message") { try browser.text(".notice-error").contains("Auth0 is busy") }
            #expect(try browser.attribute(".notice-error", "role") == "alert")
            #expect(try browser.property("#affirmation", "value") == "Not lost")
            var found: [String] = []
            try check("save-failed", &found)
            #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
        } catch {
            browser.recordFailure("a11y-failed-save")
            throw error
        }
    }

    /// On a 360 px wide phone and at 200% zoom, no screen scrolls sideways.
    @Test func screensFitA360PixelScreenAndA200PercentZoom() throws {
        defer { try? browser.emulate(width: nil) }
        func fits(_ screen: String) throws {
            for (name, width, scale) in [("360px", 360, 2.0), ("200pct", 640, 2.0)] {
                try browser.emulate(width: width, scale: scale)
                let overflow = try browser.execute(
                    "return document.documentElement.scrollWidth - document.documentElement.clientWidth;")
                #expect((overflow.number ?? 1) <= 0, "\(screen) scrolls sideways at \(name): \(overflow)")
                try browser.screenshot("a11y-\(screen)-\(name)")
            }
            try browser.emulate(width: nil)
        }
        do {
            try browser.open(stack.baseURL + "/")
            try fits("first-screen")
            try browser.click("a.button")
            try waitForTenantLogin()
            try fits("tenant-login")
            try submitTenantLogin(DemoUser.skippy)
            try browser.wait("the consent screen") { try heading() == "Authorize App" }
            try fits("tenant-consent")
            try browser.click("button[value=accept]")
            try browser.wait("the logged-in page") { try heading() == "You’re logged in!" }
            try fits("logged-in")
            try browser.open(stack.baseURL + "/logout")
            try fits("confirm-logout")
            // The same screens in Chinese (its words are of other lengths).
            try browser.open(stack.baseURL + "/lang/zh")
            try browser.wait("the logged-in page in Chinese") { try heading() == "你已登录！" }
            try fits("zh-logged-in")
            try browser.open(stack.baseURL + "/logout")
            try fits("zh-confirm-logout")
        } catch {
            browser.recordFailure("a11y-zoom")
            throw error
        }
    }
}
