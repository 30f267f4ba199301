import Auth0Web
import TestSupport
import Testing
import Web

/// Issue 50, item 1: no request the worker sends to the provider repeats a parameter (RFC 6749
/// §3.2: a parameter MUST NOT be included more than once), whichever way the client authenticates:
/// a pushed request carried the authorization request's `client_id` and the body credentials' own,
/// which a strict provider refuses with 400 `invalid_request`.
@Suite struct EachParameterOnceTests {
    private static let clientKey = (try? TestKeys.shared.key.pem()) ?? ""

    /// Each way of authenticating, as its settings say it.
    static let methods: [[String: String?]] = [
        ["CLIENT_AUTH_METHOD": "client_secret_basic"],
        ["CLIENT_AUTH_METHOD": "client_secret_post"],
        ["CLIENT_ASSERTION_KEY": clientKey, "AUTH0_CLIENT_SECRET": nil],
    ]

    /// The names of a form body, in order, repeats kept.
    private func names(_ body: [UInt8]) -> [String] {
        String(decoding: body, as: UTF8.self).split(separator: "&").map { String($0.prefix { $0 != "=" }) }
    }

    @Test(arguments: methods)
    func everyEndpointGetsEachParameterOnce(method: [String: String?]) throws {
        let settings = try RelyingPartySettings(environment: TestSettings.environment(method))
        let endpoints = try TestSettings.discovered([
            "pushed_authorization_request_endpoint": "https://tenant.example.com/oauth/par",
            "revocation_endpoint": "https://tenant.example.com/oauth/revoke",
        ])
        let provider = ScriptedHTTPClient.json(400, #"{"error":"invalid_request"}"#)
        let client = try TokenClient(settings: settings, endpoints: endpoints, http: provider)
        let links = try TenantLinks(settings: settings, endpoints: endpoints)
        let transaction = LoginTransaction.begin(returnTo: "/")
        _ = try? client.push(
            links.authorizationParameters(transaction), to: try #require(endpoints.pushedAuthorization))
        _ = try? client.exchange(code: "code", codeVerifier: transaction.codeVerifier)
        _ = try? client.refresh("refresh-token")
        _ = try? client.refresh("refresh-token", audience: "https://api.example.com/", scope: "read:things")
        _ = try? client.revoke("refresh-token")
        #expect(provider.sent.count == 5)
        for request in provider.sent {
            let sent = names(request.body)
            #expect(sent.count == Set(sent).count, "\(request.url) repeats a parameter: \(sent)")
            // Credentials in the body name the client there (once, as every parameter).
            if !request.headers.contains(where: { $0.name == "Authorization" }) {
                #expect(sent.contains("client_id"), "\(request.url): \(sent)")
            }
        }
    }
}
