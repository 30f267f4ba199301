import Foundation
import Testing
import Web

/// The app-to-web hand-off in Chromium: the address the app opens logs the browser in without a
/// password; used twice, expired, or issued to another address, the tenant asks for the password
/// with a sentence.
@Suite(.serialized) final class NativeToWebBrowserTests: StackInBrowser {
    private func handOff(from source: String? = nil) throws -> String {
        let output = try Stack.check(
            Stack.repoRoot + "/scripts/open-from-app",
            ["--app", stack.baseURL, "--tenant", stack.tenantURL] + (source.map { ["--from", $0] } ?? []))
        return try #require(output.split(separator: "\n").last.map(String.init))
    }

    /// Opens `url` in a new browser: the tenant's login page must say why it asks for the password.
    private func expectRefused(_ url: String, _ name: String) throws {
        let other = try WebDriver()
        do {
            try other.open(url)
            try other.wait("the tenant's login page") { !(try other.findAll("#password").isEmpty) }
            #expect(try other.text(".error").contains("could not be used here"))
            try other.screenshot("native-to-web-\(name)")
        } catch {
            other.recordFailure("native-to-web-\(name)")
            throw error
        }
    }

    @Test func aTokenFromAnotherAddressOrPastItsLifeIsRefused() throws {
        try expectRefused(try handOff(from: "127.0.0.2"), "other-address")
        try stack.restartTenant(["DEV_TENANT_SESSION_TRANSFER_SECONDS": "1"])
        let url = try handOff()
        usleep(1_500_000)
        try expectRefused(url, "expired")
    }

    @Test func theAppsAddressLogsChromiumInOnce() throws {
        let url = try handOff()
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
        } catch {
            browser.recordFailure("native-to-web")
            throw error
        }
        try expectRefused(url, "used-twice")
    }
}
