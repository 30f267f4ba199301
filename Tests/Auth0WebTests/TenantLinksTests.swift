import Auth0Web
import TestSupport
import Testing
import Web

@Suite struct TenantLinksTests {
    private func links(_ changes: [String: String?] = [:], endpoints: TenantEndpoints = TestSettings.endpoints) throws
        -> TenantLinks
    {
        TenantLinks(settings: try Auth0Settings(environment: TestSettings.environment(changes)), endpoints: endpoints)
    }

    @Test func v2AndOIDCLogoutURLs() throws {
        #expect(
            try links().logout(tenantSessionID: "sid-1")
                == "https://tenant.example.com/v2/logout?client_id=c&returnTo=https%3A%2F%2Fdemo.example.com%2Flogged-out"
        )
        #expect(
            try links(["AUTH0_LOGOUT": "oidc"]).logout(tenantSessionID: "sid-1")
                == "https://tenant.example.com/oidc/logout?client_id=c&post_logout_redirect_uri=https%3A%2F%2Fdemo.example.com%2Flogged-out&logout_hint=sid-1"
        )
    }

    @Test func loginStartsAtTheDiscoveredAuthorizationEndpoint() throws {
        let custom = try TenantEndpoints(
            discovery: .object([
                "issuer": "https://tenant.example.com/",
                "authorization_endpoint": "https://login.example.com/authorize",
                "token_endpoint": "https://login.example.com/oauth/token",
                "jwks_uri": "https://login.example.com/.well-known/jwks.json",
            ]), expectedIssuer: "https://tenant.example.com/")
        let url = try links(endpoints: custom).authorize(LoginTransaction.begin(returnTo: "/"))
        #expect(url.hasPrefix("https://login.example.com/authorize?response_type=code&client_id=c&"))
        #expect(url.contains("&code_challenge_method=S256"))
    }

    @Test func oidcLogoutOnATenantWithoutEndSessionStopsStartUpNamingTheSetting() throws {
        let noEndSession = try TenantEndpoints(
            discovery: .object([
                "issuer": "https://tenant.example.com/",
                "authorization_endpoint": "https://tenant.example.com/authorize",
                "token_endpoint": "https://tenant.example.com/oauth/token",
                "jwks_uri": "https://tenant.example.com/.well-known/jwks.json",
            ]), expectedIssuer: "https://tenant.example.com/")
        #expect(try links(endpoints: noEndSession).problems().isEmpty)
        let problems = try links(["AUTH0_LOGOUT": "oidc"], endpoints: noEndSession).problems()
        #expect(problems.count == 1)
        #expect(problems.first?.hasPrefix("AUTH0_LOGOUT: ") == true)
    }
}
