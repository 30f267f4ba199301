import Auth0Web
import TestSupport
import Testing
import Web

@Suite struct TenantEndpointsTests {
    static let issuer = "https://tenant.example.com/"

    /// Auth0's discovery document, as `shared/auth0-api.md` records it.
    static let auth0Document = """
        {"issuer":"https://tenant.example.com/","authorization_endpoint":"https://tenant.example.com/authorize",
        "token_endpoint":"https://tenant.example.com/oauth/token","userinfo_endpoint":"https://tenant.example.com/userinfo",
        "jwks_uri":"https://tenant.example.com/.well-known/jwks.json","revocation_endpoint":"https://tenant.example.com/oauth/revoke",
        "end_session_endpoint":"https://tenant.example.com/oidc/logout","response_types_supported":["code"],
        "code_challenge_methods_supported":["S256","plain"],"subject_types_supported":["public"],
        "token_endpoint_auth_methods_supported":["client_secret_basic","client_secret_post","private_key_jwt"],
        "scopes_supported":["openid","profile","offline_access","name","nickname","picture","email","email_verified"],
        "id_token_signing_alg_values_supported":["HS256","RS256","PS256"]}
        """

    @Test func readsAuth0sDocumentAsItsDocumentedPaths() throws {
        let tenant = ScriptedHTTPClient.json(200, Self.auth0Document)
        let endpoints = try TenantEndpoints.discover(issuer: Self.issuer, http: tenant, timeoutSeconds: 3)
        #expect(endpoints == TenantEndpoints.documented(issuer: Self.issuer))
        #expect(endpoints.auth0Logout == "https://tenant.example.com/v2/logout")
        let sent = try #require(tenant.sent.first)
        #expect(sent.url == "https://tenant.example.com/.well-known/openid-configuration")
        #expect(sent.timeoutSeconds == 3)
    }

    /// OpenID Connect Discovery 1.0 §4: the document is at the issuer (less a trailing `/`) plus
    /// `/.well-known/openid-configuration`, and its `issuer` is exactly the issuer asked for.
    @Test(arguments: [
        "https://sso.example.com/realms/demo", "https://accounts.example.com", "https://op.example.com/v2.0/",
    ])
    func anIssuerWithAPathOrNoSlashIsFoundAndMatchedExactly(issuer: String) throws {
        let document = """
            {"issuer":"\(issuer)","authorization_endpoint":"https://op.example.com/auth",
            "token_endpoint":"https://op.example.com/token","jwks_uri":"https://op.example.com/certs"}
            """
        let provider = ScriptedHTTPClient.json(200, document)
        let endpoints = try TenantEndpoints.discover(
            issuer: issuer, http: provider, timeoutSeconds: 3, setting: "ISSUER_BASE_URL")
        #expect(endpoints.issuer == issuer)
        let base = issuer.hasSuffix("/") ? String(issuer.dropLast()) : issuer
        #expect(provider.sent.first?.url == base + "/.well-known/openid-configuration")

        let other = issuer.hasSuffix("/") ? String(issuer.dropLast()) : issuer + "/"
        do {
            _ = try TenantEndpoints.discover(
                issuer: other, http: ScriptedHTTPClient.json(200, document), timeoutSeconds: 3,
                setting: "ISSUER_BASE_URL")
            Issue.record("\(other) accepted a document calling itself \(issuer)")
        } catch {
            #expect(error.line == "ISSUER_BASE_URL: the tenant calls itself \(issuer), not \(other)")
        }
    }

    @Test func aCustomDomainsEndpointsAreUsedAsPublished() throws {
        let document = Self.auth0Document.replacingOccurrences(
            of: "https://tenant.example.com/oauth/token", with: "https://login.example.com/oauth/token")
        let endpoints = try TenantEndpoints.discover(
            issuer: Self.issuer, http: ScriptedHTTPClient.json(200, document), timeoutSeconds: 3)
        #expect(endpoints.token == "https://login.example.com/oauth/token")
    }

    @Test(arguments: [
        (
            #"{"issuer":"https://other.example.com/","authorization_endpoint":"https://a/","token_endpoint":"https://t/","jwks_uri":"https://j/"}"#,
            "the tenant calls itself https://other.example.com/"
        ),
        (
            #"{"issuer":"https://tenant.example.com/","authorization_endpoint":"https://a/","jwks_uri":"https://j/"}"#,
            "no token_endpoint"
        ),
        (
            #"{"issuer":"https://tenant.example.com/","authorization_endpoint":"http://a/","token_endpoint":"https://t/","jwks_uri":"https://j/"}"#,
            "authorization_endpoint is not an https URL"
        ),
        ("[1]", "not a JSON object"),
    ])
    func aWrongDocumentIsAProblemNamingAUTH0_DOMAIN(body: String, reason: String) {
        do {
            _ = try TenantEndpoints.discover(
                issuer: Self.issuer, http: ScriptedHTTPClient.json(200, body), timeoutSeconds: 3)
            Issue.record("accepted \(body)")
        } catch {
            #expect(error.line.hasPrefix("AUTH0_DOMAIN: "))
            #expect(error.reason.contains(reason), "\(error.reason)")
            #expect(!error.transient)
        }
    }

    @Test func noAnswerOrA5xxMayBeTriedAgain() {
        let down = ScriptedHTTPClient { _ in throw HTTPClientError(.connect, "refused") }
        #expect(throws: DiscoveryProblem.self) {
            try TenantEndpoints.discover(issuer: Self.issuer, http: down, timeoutSeconds: 1)
        }
        for (tenant, transient) in [(down, true), (ScriptedHTTPClient.json(502, ""), true), (.json(404, "{}"), false)] {
            do {
                _ = try TenantEndpoints.discover(issuer: Self.issuer, http: tenant, timeoutSeconds: 1)
            } catch {
                #expect(error.transient == transient)
                #expect(error.line.hasPrefix("AUTH0_DOMAIN: "))
            }
        }
    }
}
