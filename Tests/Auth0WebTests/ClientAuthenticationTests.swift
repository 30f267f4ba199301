import Auth0Web
import Foundation
import TestSupport
import Testing
import Web

/// `client_secret_basic` and `client_secret_post` at the token and revocation endpoints, chosen
/// from the provider's discovery document and `CLIENT_AUTH_METHOD`.
@Suite struct ClientAuthenticationTests {
    static let issuer = "https://sso.example.com/realms/demo"

    /// A provider that is not Auth0, publishing `methods` (nothing when nil).
    private func provider(_ methods: [String]?) throws -> TenantEndpoints {
        var document: [String: JSONValue] = [
            "token_endpoint": "https://sso.example.com/token", "revocation_endpoint": "https://sso.example.com/revoke",
            "end_session_endpoint": "https://sso.example.com/logout",
        ]
        if let methods { document["token_endpoint_auth_methods_supported"] = .array(methods.map { .string($0) }) }
        return try TestSettings.discovered(issuer: Self.issuer, document)
    }

    private func settings(_ changes: [String: String?] = [:]) throws -> RelyingPartySettings {
        var all: [String: String?] = ["AUTH0_DOMAIN": nil, "ISSUER_BASE_URL": Self.issuer, "AUTH0_CLIENT_ID": "app:1"]
        all["AUTH0_CLIENT_SECRET"] = "s&cret é"
        for (name, value) in changes { all[name] = value }
        return try RelyingPartySettings(environment: TestSettings.environment(all))
    }

    /// What the token endpoint received for a code exchange.
    private func exchange(_ settings: RelyingPartySettings, _ endpoints: TenantEndpoints) throws -> HTTPClientRequest {
        let provider = ScriptedHTTPClient.json(200, #"{"access_token":"AT","token_type":"Bearer","expires_in":60}"#)
        _ = try TokenClient(settings: settings, endpoints: endpoints, http: provider).exchange(
            code: "C", codeVerifier: "V")
        return try #require(provider.sent.first)
    }

    @Test func basicSendsTheFormEncodedIdAndSecretInTheHeaderOnly() throws {
        let sent = try exchange(try settings(), try provider(["client_secret_basic", "client_secret_post"]))
        // RFC 6749 §2.3.1: "app:1" and "s&cret é" form-encoded, joined by ":", then base64.
        let expected = Base64URL.encodeStandard(Array("app%3A1:s%26cret%20%C3%A9".utf8))
        #expect(sent.headers.contains { $0.name == "Authorization" && $0.value == "Basic " + expected })
        let form = try FormData(urlEncoded: sent.body)
        #expect(form["client_secret"] == nil)
        #expect(form["client_id"] == nil)
        #expect(form["code"] == "C")
    }

    @Test func aProviderPublishingNoMethodsGetsBasicTheRegistrationDefault() throws {
        #expect(ClientAuthentication.chosen(settings: try settings(), endpoints: try provider(nil)) == .basic)
        #expect(ClientAuthentication.chosen(settings: try settings(), endpoints: try provider([])) == .basic)
    }

    @Test func aProviderPublishingOnlyPostGetsPost() throws {
        let endpoints = try provider(["client_secret_post", "private_key_jwt"])
        #expect(ClientAuthentication.chosen(settings: try settings(), endpoints: endpoints) == .post)
        let sent = try exchange(try settings(), endpoints)
        #expect(!sent.headers.contains { $0.name == "Authorization" })
        let form = try FormData(urlEncoded: sent.body)
        #expect(form["client_id"] == "app:1")
        #expect(form["client_secret"] == "s&cret é")
    }

    @Test func auth0KeepsPostUnlessTheSettingSaysBasic() throws {
        #expect(ClientAuthentication.chosen(settings: TestSettings.auth0, endpoints: TestSettings.endpoints) == .post)
        let basic = try RelyingPartySettings(
            environment: TestSettings.environment(["CLIENT_AUTH_METHOD": "client_secret_basic"]))
        #expect(ClientAuthentication.chosen(settings: basic, endpoints: TestSettings.endpoints) == .basic)
    }

    @Test func revocationAuthenticatesTheSameWay() throws {
        let answer = ScriptedHTTPClient.json(200, "")
        try TokenClient(settings: try settings(), endpoints: try provider(nil), http: answer).revoke("RT")
        let sent = try #require(answer.sent.first)
        #expect(sent.url == "https://sso.example.com/revoke")
        #expect(sent.headers.contains { $0.name == "Authorization" && $0.value.hasPrefix("Basic ") })
        #expect(try FormData(urlEncoded: sent.body)["token"] == "RT")
    }

    @Test func aMethodTheProviderDoesNotSupportStopsStartUpNamingTheSetting() throws {
        let settings = try settings(["CLIENT_AUTH_METHOD": "client_secret_post"])
        let endpoints = try provider(["client_secret_basic"])
        #expect(
            ProviderFit.problems(settings, endpoints) == [
                "CLIENT_AUTH_METHOD: client_secret_post is not among the provider's token_endpoint_auth_methods_supported "
                    + "(client_secret_basic)"
            ])
        #expect(throws: SettingsProblems.self) {
            try RelyingPartySettings(environment: TestSettings.environment(["CLIENT_AUTH_METHOD": "private_key_jwt"]))
        }
    }
}
