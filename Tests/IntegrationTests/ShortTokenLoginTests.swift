import Foundation
import Testing
import Web

/// Logins that get no refresh token (no `offline_access`, as with an API that does not allow
/// it) and access tokens of under a minute: the login completes and the token is used while it
/// works; once it has expired, a save logs in again and then finishes.
@Suite(.serialized) final class ShortTokenLoginTests {
    let stack: Stack

    init() throws {
        stack = try Stack(
            workerEnvironment: ["AUTH0_SCOPE": "openid profile email read:current_user update:current_user_metadata"],
            tenantEnvironment: ["DEV_TENANT_ACCESS_TOKEN_SECONDS": "30"])
    }
    deinit { stack.stop() }

    @Test func aLoginWithAShortTokenAndNoRefreshTokenCompletes() throws {
        let browser = TestClient()
        let callback = try browser.logIn(stack, as: DemoUser.skippy)
        #expect(callback.status == 302)
        #expect(callback.header("location") == "/")
        #expect(!browser.cookies.keys.contains { $0.hasPrefix("mdtx.") })  // the transaction is used up
        let home = try browser.get(stack.baseURL + "/")
        #expect(home.body.contains("You’re logged in!"))
        #expect(home.body.contains("value=\"Believe in yourself!\""))  // fetched with the 30-second token
        #expect(try !stack.log("worker").contains("level=error"))
        // A save while the token still works uses it; no renewal is possible or tried.
        let csrf = try #require(TestClient.hiddenField("csrf", in: home.body))
        let saved = try browser.post(
            stack.baseURL + "/affirmation",
            form: [("csrf", csrf), ("affirmation", "Short but fine"), ("action", "save")],
            headers: [("Origin", stack.baseURL)])
        #expect(saved.status == 303)
        #expect(saved.header("location") == "/")
        // One call to the token endpoint in all: the code exchange.
        #expect(try stack.log("dev-tenant").components(separatedBy: "path=/oauth/token ").count - 1 == 1)
        #expect(try browser.get(stack.baseURL + "/").body.contains("value=\"Short but fine\""))
    }
}
