import Auth0Web
import Foundation
import Synchronization
import TestSupport
import Testing
import Web

@Suite struct TokenClientTests {
    @Test func codeExchangeSendsPKCEVerifierAndClientSecretPost() throws {
        let tenant = ScriptedHTTPClient.json(
            200,
            #"{"access_token":"AT","id_token":"ID","refresh_token":"RT","token_type":"Bearer","expires_in":86400,"scope":"openid"}"#
        )
        let tokens = try TokenClient(settings: TestSettings.auth0, endpoints: TestSettings.endpoints, http: tenant)
            .exchange(
                code: "C", codeVerifier: "V")
        #expect(tokens.accessToken == "AT")
        #expect(tokens.idToken == "ID")
        #expect(tokens.expiresIn == 86_400)
        let sent = try #require(tenant.sent.first)
        #expect(sent.url == "https://tenant.example.com/oauth/token")
        let form = try FormData(urlEncoded: sent.body)
        #expect(form["grant_type"] == "authorization_code")
        #expect(form["code_verifier"] == "V")
        #expect(form["redirect_uri"] == "https://demo.example.com/callback")
        #expect(form["client_secret"] == "s")
    }

    @Test func errorsKeepTheOAuthErrorNameButNoSecrets() {
        let tenant = ScriptedHTTPClient.json(
            403, #"{"error":"invalid_grant","error_description":"Invalid authorization code"}"#)
        do {
            _ = try TokenClient(settings: TestSettings.auth0, endpoints: TestSettings.endpoints, http: tenant).exchange(
                code: "SECRET-CODE", codeVerifier: "V")
            Issue.record("a refused code was accepted")
        } catch {
            #expect(error.code == .codeExchangeFailed)
            #expect(!error.description.contains("SECRET-CODE"))
            #expect(error.description.contains("invalid_grant"))
        }
        let down = ScriptedHTTPClient { _ in throw HTTPClientError(.timeout, "t") }
        #expect(throws: AuthError(.tenantUnreachable, "timeout")) {
            try TokenClient(settings: TestSettings.auth0, endpoints: TestSettings.endpoints, http: down).exchange(
                code: "C", codeVerifier: "V")
        }
    }

    /// `expires_in` is the tenant's word: one that is not a sane number of seconds is a bad
    /// answer (1e20 used to trap converting to Int64, killing the worker).
    @Test(arguments: ["1e20", "-5", "1e300", "\"soon\""])
    func anExpiryOutOfRangeIsABadAnswerNotACrash(expiresIn: String) throws {
        let tenant = ScriptedHTTPClient.json(
            200, #"{"access_token":"AT","id_token":"ID","token_type":"Bearer","expires_in":"# + expiresIn + "}")
        let client = try TokenClient(settings: TestSettings.auth0, endpoints: TestSettings.endpoints, http: tenant)
        if expiresIn == "\"soon\"" {
            #expect(try client.exchange(code: "C", codeVerifier: "V").expiresIn == 86_400)  // not a number: the default
        } else {
            #expect(throws: AuthError(.badTokenResponse, "expires_in out of range")) {
                try client.exchange(code: "C", codeVerifier: "V")
            }
        }
    }

    @Test func anAnswerOverTheSizeLimitIsABadAnswer() throws {
        let tenant = ScriptedHTTPClient { _ in throw HTTPClientError(.tooLarge, "answer over 1048576 bytes") }
        let client = try TokenClient(settings: TestSettings.auth0, endpoints: TestSettings.endpoints, http: tenant)
        #expect(throws: AuthError(.badTokenResponse, "answer over the size limit")) {
            try client.exchange(code: "C", codeVerifier: "V")
        }
    }
}
