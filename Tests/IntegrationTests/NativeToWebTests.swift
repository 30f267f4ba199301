import Foundation
import Testing
import Web

/// From the iOS app to the web edition without logging in again (Auth0's Native to Web SSO,
/// issue 27 item 2): `scripts/open-from-app` plays the app against the dev tenant; the printed
/// address logs a browser in once, within the token's life, from the address it was issued to.
@Suite(.serialized) struct NativeToWebTests {
    static let refusal = "could not be used here"

    /// The address the app opens, its token exchanged from `source` (default: 127.0.0.1).
    private func handOff(_ stack: Stack, from source: String? = nil) throws -> String {
        let output = try Stack.check(
            Stack.repoRoot + "/scripts/open-from-app",
            ["--app", stack.baseURL, "--tenant", stack.tenantURL] + (source.map { ["--from", $0] } ?? []))
        return try #require(output.split(separator: "\n").last.map(String.init))
    }

    /// Opens `url` in a fresh browser and follows it to the tenant: the tenant's answer.
    private func open(_ url: String, in browser: TestClient = TestClient(), _ stack: Stack) throws -> TestClient.Answer
    {
        let login = try browser.get(url)
        #expect(login.status == 302)
        let authorize = try #require(login.header("location"))
        #expect(authorize.hasPrefix(stack.tenantURL + "/authorize?") && authorize.contains("session_transfer_token="))
        return try browser.get(authorize)
    }

    @Test func theAppsAddressLogsTheBrowserInOnceWithoutAPassword() throws {
        let stack = try Stack()
        defer { stack.stop() }
        let url = try handOff(stack)
        #expect(url.hasPrefix(stack.baseURL + "/login?session_transfer_token="))
        let browser = TestClient()
        var tenant = try open(url, in: browser, stack)
        #expect(!tenant.body.contains(#"id="password""#), "no password asked")
        if tenant.body.contains(#"action="/u/consent""#) {  // the person's first use of the web edition
            let tx = try #require(TestClient.hiddenField("tx", in: tenant.body))
            tenant = try browser.post(
                stack.tenantURL + "/u/consent", form: [("tx", tx), ("action", "accept")],
                headers: [("Origin", stack.tenantURL)])
        }
        #expect(tenant.status == 302)
        let callback = try browser.get(try #require(tenant.header("location")))
        #expect(callback.status == 302 && callback.header("location") == "/")
        let me = try browser.get(stack.baseURL + "/me")
        #expect(me.status == 200 && me.body.contains("skippy@example.com"))
        // The same address again (copied, or opened twice): used up, so the tenant asks for a password.
        let again = try open(url, stack)
        #expect(again.status == 200 && again.body.contains(Self.refusal) && again.body.contains(#"id="password""#))
        #expect(try stack.log("dev-tenant").contains("session transfer token refused"))
    }

    /// Review 3, item 6: a link on another site carrying the attacker's own token, followed by
    /// a fresh browser, logged that browser in as the attacker (login CSRF; only the tenant's IP
    /// binding stood in the way, and it does not tell apart people behind one address). Now the
    /// token goes on only for a navigation no page started; the link logs nobody in.
    @Test func aTokenInALinkFromAnotherSiteIsDropped() throws {
        let stack = try Stack()
        defer { stack.stop() }
        let url = try handOff(stack)
        for site in ["cross-site", "same-site", "same-origin"] {
            let login = try TestClient().get(url, headers: [("Sec-Fetch-Site", site)])
            #expect(login.status == 302)
            let authorize = try #require(login.header("location"))
            #expect(authorize.hasPrefix(stack.tenantURL + "/authorize?"))
            #expect(!authorize.contains("session_transfer_token"), "\(site): \(authorize)")
        }
        #expect(try stack.log("worker").contains("session transfer token dropped"))
        // The app's own way in still works with the same, unused token.
        let opened = try TestClient().get(url, headers: [("Sec-Fetch-Site", "none")])
        #expect(opened.header("location")?.contains("session_transfer_token=") == true)
    }

    /// Review 3, smaller: a refused token ended the browser's tenant session, so a made-up token
    /// in a link logged a person out of the tenant. Auth0 ends it only for a valid token of
    /// another person; a made-up one leaves it alone.
    @Test func aMadeUpTokenLeavesTheTenantSessionAlone() throws {
        let stack = try Stack()
        defer { stack.stop() }
        let browser = TestClient()
        try browser.logIn(stack, as: DemoUser.random)
        let madeUp = try browser.get(stack.baseURL + "/login?session_transfer_token=made-up-token")
        let refused = try browser.get(try #require(madeUp.header("location")))
        #expect(refused.status == 200 && refused.body.contains(Self.refusal))
        // The tenant session is still there: a new login goes through without a password.
        let again = try browser.get(try #require(try browser.get(stack.baseURL + "/login").header("location")))
        #expect(again.status == 302, "asked for a password again: the tenant session ended")
    }

    @Test func anExpiredTokenIsRefusedWithASentence() throws {
        let stack = try Stack(tenantEnvironment: ["DEV_TENANT_SESSION_TRANSFER_SECONDS": "1"])
        defer { stack.stop() }
        let url = try handOff(stack)
        usleep(1_500_000)
        let tenant = try open(url, stack)
        #expect(tenant.status == 200 && tenant.body.contains(Self.refusal))
    }

    @Test func aTokenOpenedFromAnotherAddressIsRefused() throws {
        let stack = try Stack()
        defer { stack.stop() }
        // The app asked from 127.0.0.2; the browser comes from 127.0.0.1.
        let url = try handOff(stack, from: "127.0.0.2")
        let tenant = try open(url, stack)
        #expect(tenant.status == 200 && tenant.body.contains(Self.refusal))
    }

    @Test func onlyTheNativeAppMayExchangeAndOnlyItsOwnRefreshToken() throws {
        let stack = try Stack()
        defer { stack.stop() }
        let host = try #require(URLComponents(string: stack.tenantURL)?.host)
        let exchange = { (fields: [(String, String)]) throws -> TestClient.Answer in
            try TestClient().post(
                stack.tenantURL + "/oauth/token",
                form: [("grant_type", "refresh_token"), ("audience", "urn:\(host):session_transfer")] + fields)
        }
        // The web application may not mint session transfer tokens, even with its secret.
        let web = try exchange([
            ("client_id", "metadata-demo-dev"),
            ("client_secret", try #require(stack.devEnvironment["AUTH0_CLIENT_SECRET"])),
            ("refresh_token", "v1.anything"),
        ])
        #expect(web.status == 403 && web.body.contains("access_denied"))
        // The native app with a refresh token that is not its own.
        let stranger = try exchange([("client_id", "metadata-demo-ios"), ("refresh_token", "v1.not-issued")])
        #expect(stranger.status == 403 && stranger.body.contains("invalid_grant"))
        // A public client proves nothing but its id: a secret sent with it is refused.
        let withSecret = try exchange([
            ("client_id", "metadata-demo-ios"), ("client_secret", "guess"), ("refresh_token", "v1.x"),
        ])
        #expect(withSecret.status == 401)
    }
}
