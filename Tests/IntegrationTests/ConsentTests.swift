import Foundation
import Testing
import Web

/// The dev tenant's "Authorize App" screen, as Auth0's Universal Login shows it: on a person's
/// first authorization of an application, again when it asks for more, whenever
/// `prompt=consent`; Accept remembered per person and application, Decline `access_denied`.
@Suite(.serialized) final class ConsentTests {
    let stack: Stack
    var clientID: String { stack.devEnvironment["AUTH0_CLIENT_ID"]! }
    var callback: String { stack.baseURL + "/callback" }

    init() throws { stack = try Stack() }
    deinit { stack.stop() }

    private func authorize(scope: String, prompt: String? = nil) -> String {
        var pairs = [
            ("response_type", "code"), ("client_id", clientID), ("redirect_uri", callback), ("scope", scope),
            ("state", "st-1"), ("nonce", "nn"),
        ]
        if let prompt { pairs.append(("prompt", prompt)) }
        return stack.tenantURL + "/authorize?" + PercentEncoding.formEncode(pairs)
    }

    /// Logs in on the tenant's form; returns its answer (the consent screen or the redirect).
    private func logIn(_ browser: TestClient, at url: String, as user: (email: String, password: String)) throws
        -> TestClient.Answer
    {
        let page = try browser.get(url)
        let tx = try #require(TestClient.hiddenField("tx", in: page.body))
        return try browser.post(
            stack.tenantURL + "/u/login",
            form: [("tx", tx), ("email", user.email), ("password", user.password), ("action", "login")],
            headers: [("Origin", stack.tenantURL)])
    }

    private func answer(_ browser: TestClient, _ consent: TestClient.Answer, _ action: String) throws
        -> TestClient.Answer
    {
        let tx = try #require(TestClient.hiddenField("tx", in: consent.body))
        return try browser.post(
            stack.tenantURL + "/u/consent", form: [("tx", tx), ("action", action)],
            headers: [("Origin", stack.tenantURL)])
    }

    @Test func theFirstLoginAsksAndAcceptIsRemembered() throws {
        let scope = "openid profile email read:current_user update:current_user_metadata offline_access"
        let browser = TestClient()
        let consent = try logIn(browser, at: authorize(scope: scope), as: DemoUser.skippy)
        #expect(consent.status == 200)
        #expect(consent.body.contains("<h1>Authorize App</h1>"))
        #expect(consent.body.contains("Metadata demo"), "the application's name")
        #expect(consent.body.contains("skippy@example.com"))
        #expect(consent.body.contains("Read your profile"))
        #expect(consent.body.contains("Read and update your user metadata"))
        #expect(consent.header("content-security-policy")?.contains("form-action 'self'") == true)
        let accepted = try answer(browser, consent, "accept")
        #expect(accepted.status == 302)
        #expect(accepted.header("location")?.hasPrefix(callback + "?code=") == true)
        #expect(accepted.header("location")?.hasSuffix("&state=st-1") == true)
        // Remembered in the tenant's saved state, for this person and application.
        let state = try String(contentsOfFile: stack.devEnvironment["DEV_TENANT_STATE_FILE"]!, encoding: .utf8)
        #expect(state.contains("\"grants\"") && state.contains("update:current_user_metadata"))
        // Another browser, same person: no screen. The same form's ticket cannot answer twice.
        let again = try logIn(TestClient(), at: authorize(scope: scope), as: DemoUser.skippy)
        #expect(again.status == 302)
        #expect(again.header("location")?.hasPrefix(callback + "?code=") == true)
        #expect(try answer(browser, consent, "accept").status == 400)
        // Single sign-on in the first browser: no form, no screen.
        let sso = try browser.get(authorize(scope: scope))
        #expect(sso.status == 302 && sso.header("location")?.hasPrefix(callback + "?code=") == true)
    }

    @Test func moreScopesOrPromptConsentAskAgain() throws {
        let browser = TestClient()
        let first = try logIn(browser, at: authorize(scope: "openid profile"), as: DemoUser.random)
        #expect(first.body.contains("Read your profile"))
        #expect(!first.body.contains("user metadata"))
        #expect(try answer(browser, first, "accept").status == 302)
        // By single sign-on: nothing new asked, no screen; more scopes, the screen again.
        #expect(try browser.get(authorize(scope: "openid profile")).status == 302)
        let more = try browser.get(authorize(scope: "openid profile update:current_user_metadata"))
        #expect(more.status == 200 && more.body.contains("Read and update your user metadata"))
        // prompt=none cannot show it: consent_required.
        let silent = try browser.get(authorize(scope: "openid profile update:current_user_metadata", prompt: "none"))
        #expect(silent.header("location")?.contains("error=consent_required") == true)
        #expect(try answer(browser, more, "accept").status == 302)
        // prompt=consent always shows it.
        let forced = try browser.get(authorize(scope: "openid profile", prompt: "consent"))
        #expect(forced.status == 200 && forced.body.contains("Authorize App"))
    }

    @Test func declineIsAccessDeniedAndTheProductOffersToLogInAgain() throws {
        let browser = TestClient()
        let start = try browser.get(stack.baseURL + "/login")
        let consent = try logIn(browser, at: try #require(start.header("location")), as: DemoUser.random)
        #expect(consent.body.contains("Authorize App"))
        let declined = try answer(browser, consent, "decline")
        let location = try #require(declined.header("location"))
        #expect(location.hasPrefix(callback + "?error=access_denied&error_description="))
        let page = try browser.get(location)
        #expect(page.status == 403)
        #expect(page.body.contains("Login cancelled"))
        #expect(page.body.contains("href=\"/login\""))
        // Nothing was granted: the next login asks again.
        let next = try browser.get(try #require(try browser.get(stack.baseURL + "/login").header("location")))
        #expect(next.status == 200 && next.body.contains("Authorize App"))
    }

    @Test func theConsentFormOnlyFromTheTenantsOwnPage() throws {
        let browser = TestClient()
        let consent = try logIn(browser, at: authorize(scope: "openid profile"), as: DemoUser.skippy)
        let tx = try #require(TestClient.hiddenField("tx", in: consent.body))
        let forged = try browser.post(
            stack.tenantURL + "/u/consent", form: [("tx", tx), ("action", "accept")],
            headers: [("Origin", "https://evil.example")])
        #expect(forged.status == 403)
        let elsewhere = try TestClient().post(
            stack.tenantURL + "/u/consent", form: [("tx", tx), ("action", "accept")],
            headers: [("Origin", stack.tenantURL)])
        #expect(elsewhere.status == 400)  // not this browser's ticket
    }
}
