import Foundation
import TestSupport
import Testing
import Web

/// The product against an OpenID provider nobody on this team wrote: PyPI's oidc-provider-mock
/// (Flask and Authlib), through nginx and the real worker. It does things its own way, as real
/// providers do: its issuer has no trailing slash, its ID tokens carry no `kid`, it does not list
/// `offline_access`, a client registered for `client_secret_basic` may use nothing else, and it
/// has no Management API.
@Suite(.serialized) final class OpenIDProviderTests {
    let stack: Stack
    let issuer: String
    let client: (id: String, secret: String)

    init() throws {
        stack = try Stack(workers: 0)
        let port = try stack.startProvider("oidc-provider") {
            ["-m", "oidc_provider_mock", "--port", String($0), "--require-registration"]
        }
        issuer = "http://127.0.0.1:\(port)"
        // Registered as a relying party registers (OpenID Connect Dynamic Client Registration).
        let registration = try TestClient().send(
            "POST", issuer + "/oauth2/clients", headers: [("Content-Type", "application/json")],
            body: JSONValue.object([
                "redirect_uris": .array([.string(stack.baseURL + "/callback")]),
                "token_endpoint_auth_method": "client_secret_basic",
            ]).serialized())
        #expect(registration.status == 201, "\(registration.body)")
        let registered = try #require(JSONValue.parse(Array(registration.body.utf8)))
        client = (try #require(registered["client_id"]?.string), try #require(registered["client_secret"]?.string))
    }

    deinit { stack.stop() }

    /// The worker with default settings apart from the provider's issuer and the client.
    private func startWorker(_ extra: [String: String] = [:]) throws {
        try stack.startWorker(issuer: issuer, clientID: client.id, secret: client.secret, extra)
    }

    /// Logs in as `sub` on the provider's form; returns the home page after the callback.
    private func logIn(_ browser: TestClient, as sub: String) throws -> TestClient.Answer {
        let landing = try browser.logIn(stack, atProviderWith: [("sub", sub)])
        #expect(landing.status == 302, "\(landing.body)")
        return try browser.get(stack.baseURL + "/")
    }

    /// Logs in as `sub`, then posts `form` to `path` from the home page, as its form does.
    private func loggedInPost(as sub: String, to path: String, _ form: [(String, String)]) throws -> (
        browser: TestClient, answer: TestClient.Answer
    ) {
        try startWorker()
        let browser = TestClient()
        let home = try logIn(browser, as: sub)
        let csrf = try #require(TestClient.hiddenField("csrf", in: home.body))
        let answer = try browser.post(
            stack.baseURL + path, form: [("csrf", csrf)] + form, headers: [("Origin", stack.baseURL)])
        return (browser, answer)
    }

    @Test func aPersonLogsInAndSeesWhatTheProviderSaysOfThem() throws {
        try startWorker()
        let browser = TestClient()
        let authorize = try browser.startLogin(stack)
        // Default settings fitted to this provider: no Auth0 audience, no offline_access it does
        // not list, so no consent prompt either.
        #expect(!authorize.contains("audience="))
        #expect(authorize.contains("scope=openid%20profile%20email&"))
        #expect(!authorize.contains("prompt="))

        let home = try logIn(TestClient(), as: "ada@example.com")
        #expect(home.status == 200)
        #expect(home.body.contains("Email: ada@example.com"))
        // Its ID token names no `name`: the worker asked UserInfo, with the access token as a
        // Bearer header (the provider refuses anything else with a 401, failing the login).
        // The provider writes its log line after its answer: waited for, not read at once.
        #expect(eventually { (try? stack.log("oidc-provider"))?.contains("GET /userinfo") == true })
        // The affirmation is Auth0 metadata: the page says this provider has none, in place of
        // the form, and no more than once (no "could not be loaded" notice besides).
        #expect(home.body.components(separatedBy: "which this sign-in provider does not have").count == 2)
        #expect(!home.body.contains("name=\"affirmation\""))
        #expect(try !stack.log("worker").contains("/api/v2/"))
    }

    @Test func aSaveSaysThisProviderKeepsNoMetadata() throws {
        let (_, answer) = try loggedInPost(
            as: "grace@example.com", to: "/affirmation", [("affirmation", "Kept <3"), ("action", "save")])
        // Only a hand-made request gets here: the page has no affirmation form for this provider.
        #expect(answer.status == 409)
        #expect(answer.body.contains("which this sign-in provider does not have"))
        #expect(!answer.body.contains("name=\"affirmation\""))
    }

    @Test func logoutEndsTheProvidersSessionAtItsEndSessionEndpoint() throws {
        let (browser, logout) = try loggedInPost(as: "edsger@example.com", to: "/logout", [])
        #expect(!browser.cookies.keys.contains("mds"))
        #expect(logout.status == 303)
        let endSession = try #require(logout.header("location"))
        #expect(endSession.hasPrefix(issuer + "/oauth2/end_session?client_id=" + PercentEncoding.encode(client.id)))
        #expect(
            endSession.contains("post_logout_redirect_uri=" + PercentEncoding.encode(stack.baseURL + "/logged-out")))
        #expect(try TestClient().get(endSession).status < 400)
    }

    /// The provider holds the client to the method it registered: `client_secret_post` is refused,
    /// and the person sees the login refused, not an error of the site.
    @Test func theRegisteredClientAuthenticationIsTheOneThatWorks() throws {
        try startWorker(["CLIENT_AUTH_METHOD": "client_secret_post"])
        let browser = TestClient()
        let callback = try browser.logIn(stack, atProviderWith: [("sub", "mallory@example.com")])
        #expect(callback.status == 400)
        #expect(callback.body.contains("Log in"))
        #expect(try stack.log("worker").contains("reason=code_exchange_failed detail=\"401 invalid_client\""))
    }
}
