import Auth0Web
import TestSupport
import Testing
import Web

/// Issue 41, item 3: pushed authorization requests (RFC 9126) as the product chooses, sends and
/// reads them.
@Suite struct PushedAuthorizationTests {
    private func endpoints(_ extra: [String: JSONValue] = [:]) throws -> TenantEndpoints {
        try TestSettings.discovered(extra)
    }

    private static let listed: [String: JSONValue] = [
        "pushed_authorization_request_endpoint": "https://tenant.example.com/oauth/par"
    ]

    /// The settings' problems on a provider with `endpoints` (the discovery stage).
    private func fit(_ mode: String?, _ endpoints: TenantEndpoints) throws -> [String] {
        ProviderFit.problems(
            try RelyingPartySettings(environment: TestSettings.environment(["PUSHED_AUTHORIZATION_REQUESTS": mode])),
            endpoints)
    }

    private func links(_ mode: String?, _ endpoints: TenantEndpoints) throws -> TenantLinks {
        try TenantLinks(
            settings: try RelyingPartySettings(
                environment: TestSettings.environment(["PUSHED_AUTHORIZATION_REQUESTS": mode])),
            endpoints: endpoints)
    }

    @Test func logInsPushWhenTheProviderListsTheEndpointUnlessTurnedOff() throws {
        #expect(try links(nil, endpoints(Self.listed)).pushEndpoint == "https://tenant.example.com/oauth/par")
        #expect(try links("required", endpoints(Self.listed)).pushEndpoint != nil)
        #expect(try links(nil, endpoints()).pushEndpoint == nil, "a provider without the endpoint")
        #expect(try links("off", endpoints(Self.listed)).pushEndpoint == nil)
        #expect(try fit(nil, endpoints(Self.listed)).isEmpty)
    }

    @Test func whatCannotWorkStopsStartUpWithOneLineNamingTheSetting() throws {
        let required = try fit("required", endpoints())
        #expect(required.count == 1 && required[0].hasPrefix("PUSHED_AUTHORIZATION_REQUESTS: required, but"))
        var demanding = Self.listed
        demanding["require_pushed_authorization_requests"] = .bool(true)
        let off = try fit("off", endpoints(demanding))
        #expect(off == ["PUSHED_AUTHORIZATION_REQUESTS: off, but the provider requires pushed authorization requests"])
        #expect(throws: SettingsProblems.self) {
            try RelyingPartySettings(environment: TestSettings.environment(["PUSHED_AUTHORIZATION_REQUESTS": "yes"]))
        }
        #expect(
            TestSettings.problems(["PUSHED_AUTHORIZATION_REQUESTS": "yes"]) == [
                "PUSHED_AUTHORIZATION_REQUESTS: must be auto, required or off"
            ])
    }

    /// The browser carries the client and the reference; everything else went with the push,
    /// authenticated as at the token endpoint.
    @Test func theRequestIsPushedWithTheCredentialsAndTheBrowserCarriesOnlyItsReference() throws {
        let tenant = ScriptedHTTPClient.json(
            201, #"{"request_uri":"urn:ietf:params:oauth:request_uri:abc","expires_in":30}"#)
        let endpoints = try endpoints(Self.listed)
        let links = try links(nil, endpoints)
        let transaction = LoginTransaction.begin(returnTo: "/")
        let request = links.authorizationParameters(transaction, uiLocales: "zh-CN")
        let pushed = try TokenClient(settings: TestSettings.auth0, endpoints: endpoints, http: tenant)
            .push(request, to: try #require(links.pushEndpoint))
        #expect(
            pushed == PushedAuthorization.Pushed(requestURI: "urn:ietf:params:oauth:request_uri:abc", expiresIn: 30))
        let sent = try #require(tenant.sent.first)
        #expect(sent.method == "POST" && sent.url == "https://tenant.example.com/oauth/par")
        let form = try FormData(urlEncoded: sent.body)
        #expect(
            form["client_secret"] == "s" && form["state"] == transaction.state && form["nonce"] == transaction.nonce)
        #expect(form["code_challenge_method"] == "S256" && form["ui_locales"] == "zh-CN")
        #expect(
            links.authorize(pushed: pushed)
                == "https://tenant.example.com/authorize?client_id=\(TestSettings.auth0.client.id)"
                + "&request_uri=urn%3Aietf%3Aparams%3Aoauth%3Arequest_uri%3Aabc")
    }

    /// Issue 50, item 2: a refusal of the request (or an answer that is not one) is 502, which
    /// waiting will not mend, with the provider's own words for the log; the provider's trouble
    /// (5xx, 429) is 503, to try again.
    @Test(arguments: [
        (
            400, #"{"error":"invalid_request","error_description":"bad\nredirect_uri"}"#, "authorization_push_failed",
            502
        ),
        (401, #"{"error":"invalid_client"}"#, "authorization_push_failed", 502),
        (503, #"{"error":"server_error"}"#, "tenant_unavailable", 503),
        (429, #"{"error":"too_many_requests"}"#, "tenant_unavailable", 503),
        (201, #"{"expires_in":30}"#, "authorization_push_failed", 502),
        (201, #"{"request_uri":"urn:x","expires_in":-1}"#, "authorization_push_failed", 502),
        (200, #"{"request_uri":"urn:x","expires_in":30}"#, "authorization_push_failed", 502),
    ])
    func aRefusalOrABadAnswerIsAnErrorThePersonReads(status: Int, body: String, code: String, pageStatus: Int) throws {
        let tenant = ScriptedHTTPClient.json(status, body)
        let client = try TokenClient(settings: TestSettings.auth0, endpoints: try endpoints(Self.listed), http: tenant)
        do {
            _ = try client.push([("response_type", "code")], to: "https://tenant.example.com/oauth/par")
            Issue.record("accepted")
        } catch {
            #expect(error.code.rawValue == code, "\(error)")
            #expect(error.status == pageStatus)
            if status == 400 { #expect(error.oauthDescription == "badredirect_uri", "control characters removed") }
        }
    }
}
