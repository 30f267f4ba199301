import DevTenantKit
import Foundation
import Testing
import Web

/// The response modes the dev tenant's discovery document lists, as Auth0's does (query, fragment,
/// form_post), are the ones `/authorize` answers in; any other is refused. Shown on the answers
/// that need no login (a refused request goes back to the application the same way a code does).
@Suite struct ResponseModeTests {
    static let callback = "http://127.0.0.1:8080/callback"

    private func authorize(mode: String) throws -> Response {
        let tenant = try DevTenantTests.make()
        let query: [(String, String)] = [
            ("response_type", "token"), ("client_id", "metadata-demo-dev"), ("redirect_uri", Self.callback),
            ("state", "S<&>"), ("response_mode", mode),
        ]
        return tenant.respond(to: Request(method: "GET", path: "/authorize", query: PercentEncoding.formEncode(query)))
    }

    @Test func theQueryAndTheFragmentCarryTheAnswerAsAsked() throws {
        let query = try authorize(mode: "query")
        #expect(query.status == 302)
        #expect(
            query.headers.first { $0.name == "Location" }?.value.hasPrefix(
                Self.callback + "?error=unsupported_response_type") == true)
        let fragment = try authorize(mode: "fragment")
        #expect(
            fragment.headers.first { $0.name == "Location" }?.value.hasPrefix(
                Self.callback + "#error=unsupported_response_type") == true)
    }

    @Test func aFormPostIsAPageThatPostsTheAnswerToTheCallback() throws {
        let page = try authorize(mode: "form_post")
        let html = String(decoding: page.body, as: UTF8.self)
        #expect(page.status == 200)
        #expect(html.contains("<form method=\"post\" action=\"\(Self.callback)\">"))
        #expect(html.contains("<input type=\"hidden\" name=\"error\" value=\"unsupported_response_type\">"))
        #expect(html.contains("name=\"state\" value=\"S&lt;&amp;&gt;\""), "escaped")
        let policy = page.headers.first { $0.name == "Content-Security-Policy" }?.value ?? ""
        #expect(policy.contains("form-action http://127.0.0.1:8080") && policy.contains("script-src 'nonce-"))
    }

    @Test func anUnknownModeIsRefused() throws {
        let refused = try authorize(mode: "web_message")
        #expect(refused.headers.first { $0.name == "Location" }?.value.contains("error=invalid_request") == true)
    }
}
