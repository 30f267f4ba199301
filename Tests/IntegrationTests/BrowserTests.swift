import Foundation
import Testing

/// What a person sees and clicks in a real browser (headless Chromium), through nginx, the
/// worker and the dev tenant. Every screen is saved under `test-artifacts/browser/`.
@Suite(.serialized) final class BrowserTests: StackInBrowser {
    /// Runs the steps; on failure keeps a screenshot and the page source.
    private func steps(_ name: String, _ body: () throws -> Void) throws {
        do {
            try body()
        } catch {
            browser.recordFailure(name)
            throw error
        }
    }

    private func logIn(_ user: (email: String, password: String), screens: String? = nil) throws {
        try browser.open(stack.baseURL + "/")
        if let screens { try browser.screenshot("\(screens)-1-first-visit") }
        #expect(try browser.text("h1") == "Metadata demo")
        try browser.click("a.button")
        try waitForTenantLogin()
        if let screens { try browser.screenshot("\(screens)-2-tenant-login") }
        try submitTenantLogin(user)
        // A person's first login to the app asks them to authorize it.
        try browser.wait("the consent or logged-in page") {
            ["Authorize App", "You’re logged in!"].contains(try browser.text("h1"))
        }
        if try browser.text("h1") == "Authorize App" {
            if let screens { try browser.screenshot("\(screens)-2b-tenant-consent") }
            try browser.click("button[value=accept]")
        }
        try browser.wait("the logged-in page") { try browser.text("h1") == "You’re logged in!" }
    }

    @Test func skippyDoesEverythingTheAppShows() throws {
        try steps("skippy") {
            try logIn(DemoUser.skippy, screens: "skippy")
            try browser.screenshot("skippy-3-logged-in")
            #expect(try browser.title() == "You’re logged in!")
            #expect(try browser.text(".profile").contains("Name: skippy@example.com"))
            #expect(try browser.text(".profile").contains("Email: skippy@example.com"))
            #expect(try browser.attribute(".avatar", "src") == stack.tenantURL + "/avatars/sk.svg")
            #expect(try browser.property("#affirmation", "value") == "Believe in yourself!")
            #expect(try browser.text(".announcement") == "Tap here for an important announcement")
            #expect(try browser.attribute(".announcement", "href") == "https://www.youtube.com/watch?v=DLzxrzFCyOs")
            #expect(try browser.attribute(".announcement", "target") == "_blank")
            #expect(try browser.attribute(".announcement", "rel") == "noopener noreferrer")

            try browser.type("You’ve got this!!!", into: "#affirmation")
            try browser.click("button[value=save]")
            try browser.wait("the saved notice") { try browser.text(".notice").contains("Affirmation saved.") }
            try browser.screenshot("skippy-4-saved")
            try browser.reload()
            try browser.wait("the reloaded page") { try browser.findAll(".notice").isEmpty }
            #expect(try browser.property("#affirmation", "value") == "You’ve got this!!!")

            try browser.type("typed but not saved", into: "#affirmation")
            try browser.click("button[value=refresh]")
            try browser.wait("the refreshed notice") { try browser.text(".notice").contains("Affirmation refreshed.") }
            #expect(try browser.property("#affirmation", "value") == "You’ve got this!!!")

            let main = try browser.currentWindow()
            try browser.click(".announcement")
            try browser.wait("a new tab") { try browser.windows().count == 2 }
            try browser.switchTo(window: main)

            try browser.type("Believe in yourself!", into: "#affirmation")
            try browser.click("button[value=save]")
            try browser.wait("the saved notice") { try browser.text(".notice").contains("Affirmation saved.") }

            try browser.click("form[action='/logout'] button")
            try browser.wait("the logged-out page") { try browser.text("h1") == "You’re logged out." }
            try browser.screenshot("skippy-5-logged-out")
            #expect(try browser.currentURL() == stack.baseURL + "/logged-out")
            try browser.back()
            try browser.wait("the previous page") { try browser.currentURL() != stack.baseURL + "/logged-out" }
            #expect(!(try browser.source()).contains("You’re logged in!"))
            try browser.open(stack.baseURL + "/")
            #expect(try browser.text("h1") == "Metadata demo")
        }
    }

    @Test func randomUserHasNoAnnouncementAndAnEmptyField() throws {
        try steps("randomuser") {
            try logIn(DemoUser.random)
            try browser.screenshot("randomuser-logged-in")
            #expect(try browser.property("#affirmation", "value") == "")
            #expect(try browser.attribute("#affirmation", "placeholder") == "Your affirmation here")
            #expect(try browser.findAll(".announcement").isEmpty)
            // Page views carry the session only; the access token is kept for the save route.
            #expect(try browser.cookies()["mds"] == "/")
            #expect(try browser.cookies()["mda"] == nil)
            try browser.open(stack.baseURL + "/affirmation")  // a 405 page, but at the token's path
            #expect(try browser.cookies()["mda"] == "/affirmation")
            try browser.open(stack.baseURL + "/")
            try browser.click("form[action='/logout'] button")
            try browser.wait("the logged-out page") { try browser.text("h1") == "You’re logged out." }
            #expect(try browser.cookies()["mds"] == nil)
            try browser.open(stack.baseURL + "/affirmation")
            #expect(try browser.cookies()["mda"] == nil)  // logging out forgot the token too
        }
    }

    @Test func twoWindowsSavingDifferentTextLastSaveWins() throws {
        try steps("two-windows") {
            try logIn(DemoUser.random)
            let first = try browser.currentWindow()
            let second = try browser.newWindow()
            try browser.open(stack.baseURL + "/")
            try browser.type("From the second window", into: "#affirmation")
            try browser.switchTo(window: first)
            try browser.type("From the first window", into: "#affirmation")
            try browser.click("button[value=save]")
            try browser.wait("the first save") { try browser.text(".notice").contains("Affirmation saved.") }
            try browser.switchTo(window: second)
            try browser.click("button[value=save]")
            try browser.wait("the second save") { try browser.text(".notice").contains("Affirmation saved.") }
            try browser.switchTo(window: first)
            try browser.click("button[value=refresh]")
            try browser.wait("the refresh") { try browser.text(".notice").contains("Affirmation refreshed.") }
            #expect(try browser.property("#affirmation", "value") == "From the second window")
            try browser.screenshot("two-windows-last-save-wins")
            try browser.type("", into: "#affirmation")
            try browser.click("button[value=save]")
            try browser.wait("the reset") { try browser.text(".notice").contains("Affirmation saved.") }
        }
    }
}
