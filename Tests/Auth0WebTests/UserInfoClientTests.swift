import Auth0Web
import TestSupport
import Testing
import Web

/// UserInfo for a provider that gives the profile there rather than in the ID token: asked with
/// the access token in the `Authorization` header, its `sub` checked against the ID token's.
@Suite struct UserInfoClientTests {
    static let issuer = "https://sso.example.com/realms/demo"
    // swift-format-ignore: NeverUseForceTry
    /// A provider whose discovery document names a UserInfo endpoint.
    static let endpoints = try! TestSettings.discovered(
        issuer: issuer, ["userinfo_endpoint": "https://sso.example.com/userinfo"])

    private func client(_ provider: ScriptedHTTPClient) throws -> UserInfoClient {
        let settings = try RelyingPartySettings(
            environment: TestSettings.environment(["AUTH0_DOMAIN": nil, "ISSUER_BASE_URL": Self.issuer]))
        return try #require(
            UserInfoClient(try ClientConfiguration(settings: settings, endpoints: Self.endpoints), http: provider))
    }

    private let idClaims: JSONValue = .object(["sub": "user-1", "name": "From the ID token", "nonce": "n"])

    @Test func missingClaimsComeFromUserInfoAndTheIDTokensOwnWin() throws {
        let provider = ScriptedHTTPClient.json(
            200, #"{"sub":"user-1","name":"From UserInfo","email":"skippy@example.com","email_verified":true}"#)
        let claims = try client(provider).complete(idClaims, accessToken: "AT-1")
        #expect(claims["email"]?.string == "skippy@example.com")
        #expect(claims["email_verified"]?.bool == true)
        #expect(claims["name"]?.string == "From the ID token")
        let sent = try #require(provider.sent.first)
        #expect(sent.method == "GET")
        #expect(sent.url == "https://sso.example.com/userinfo")
        #expect(sent.headers.contains { $0.name == "Authorization" && $0.value == "Bearer AT-1" })
    }

    @Test func anIDTokenWithTheShownClaimsNeedsNoCall() throws {
        let provider = ScriptedHTTPClient.json(200, #"{"sub":"user-1"}"#)
        let full: JSONValue = .object(["sub": "user-1", "name": "N", "email": "e@example.com"])
        #expect(try client(provider).complete(full, accessToken: "AT") == full)
        #expect(provider.sent.isEmpty)
    }

    @Test func anotherSubjectIsRefusedAsAnUnverifiedLogin() throws {
        let provider = ScriptedHTTPClient.json(200, #"{"sub":"someone-else","email":"x@example.com"}"#)
        #expect(throws: AuthError(.userinfoWrongSubject)) { try client(provider).complete(idClaims, accessToken: "AT") }
        #expect(AuthError(.userinfoWrongSubject).status == 400)
        #expect(AuthError(.userinfoWrongSubject).wordsKey == "error.login_not_verified")
        let noSubject = ScriptedHTTPClient.json(200, #"{"email":"x@example.com"}"#)
        #expect(throws: AuthError(.userinfoWrongSubject)) {
            try client(noSubject).complete(idClaims, accessToken: "AT")
        }
    }

    @Test(arguments: [
        (401, "{}", AuthError.Code.userinfoFailed), (200, "eyJhbGciOiJSUzI1NiJ9.e30.c2ln", .userinfoFailed),
        (503, "", .tenantUnavailable), (429, "", .tenantUnavailable),
    ])
    func aBadAnswerFailsTheLoginWithItsReason(status: Int, body: String, code: AuthError.Code) throws {
        do {
            _ = try client(ScriptedHTTPClient.json(status, body)).complete(idClaims, accessToken: "AT")
            Issue.record("accepted \(status) \(body)")
        } catch {
            #expect((error as? AuthError)?.code == code)
        }
    }

    @Test func auth0LoginsMakeNoCall() throws {
        let auth0 = try ClientConfiguration(settings: TestSettings.auth0, endpoints: TestSettings.endpoints)
        #expect(UserInfoClient(auth0, http: ScriptedHTTPClient()) == nil)
    }
}
