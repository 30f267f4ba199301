import Foundation
import Testing
import Web

/// The app-to-web hand-off in Chromium: the address the app opens logs the browser in without a
/// password; opened again in another browser, the tenant asks for the password with a sentence.
@Suite(.serialized) final class NativeToWebBrowserTests: StackInBrowser {
    @Test func theAppsAddressLogsChromiumInOnce() throws {
        let output = try Stack.check(
            Stack.repoRoot + "/scripts/open-from-app", ["--app", stack.baseURL, "--tenant", stack.tenantURL])
        let url = try #require(output.split(separator: "\n").last.map(String.init))
        let other = try WebDriver()
        do {
            try browser.open(url)
            try browser.wait("the consent or logged-in page") {
                let loggedIn = !(try browser.findAll("a[href='/sessions']").isEmpty)
                let asked = !(try browser.findAll("button[value=accept]").isEmpty)
                return loggedIn || asked
            }
            #expect(try browser.findAll("#password").isEmpty, "no password was asked")
            if !(try browser.findAll("button[value=accept]").isEmpty) { try browser.click("button[value=accept]") }
            try browser.wait("the logged-in page") { try browser.text("h1") == "You’re logged in!" }
            try browser.screenshot("native-to-web-logged-in")

            try other.open(url)
            try other.wait("the tenant's login page") { !(try other.findAll("#password").isEmpty) }
            #expect(try other.text(".error").contains("could not be used here"))
            try other.screenshot("native-to-web-used-twice")
        } catch {
            browser.recordFailure("native-to-web")
            other.recordFailure("native-to-web-other")
            throw error
        }
    }
}
