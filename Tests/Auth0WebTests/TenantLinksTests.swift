import Auth0Web
import TestSupport
import Testing
import Web

@Suite struct TenantLinksTests {
    private func links(_ changes: [String: String?] = [:], endpoints: TenantEndpoints = TestSettings.endpoints) throws
        -> TenantLinks
    {
        try TenantLinks(
            settings: try RelyingPartySettings(environment: TestSettings.environment(changes)), endpoints: endpoints)
    }

    /// The settings' problems on a provider with `endpoints` (the discovery stage).
    private func fit(_ changes: [String: String?] = [:], endpoints: TenantEndpoints = TestSettings.endpoints) throws
        -> [String]
    {
        ProviderFit.problems(try RelyingPartySettings(environment: TestSettings.environment(changes)), endpoints)
    }

    /// Endpoints of a tenant at `tenant.example.com` whose document names these (at least the
    /// three discovery requires).
    private func endpoints(authorization: String, token: String, jwks: String) throws -> TenantEndpoints {
        try TestSettings.discovered([
            "authorization_endpoint": .string(authorization), "token_endpoint": .string(token),
            "jwks_uri": .string(jwks),
        ])
    }

    /// Native to Web SSO: the app's session transfer token goes to Auth0's /authorize as a query
    /// parameter; junk, or another provider (which knows nothing of it), gets nothing.
    @Test func aSessionTransferTokenIsPassedToAuth0Only() throws {
        let transaction = LoginTransaction.begin(returnTo: "/")
        let url = try links().authorize(transaction, sessionTransferToken: "stt_AbC-12.x~")
        #expect(
            url.contains("&session_transfer_token=stt_AbC-12.x~")
                || url.contains("&session_transfer_token=stt_AbC-12.x%7E"))
        for junk in ["", "a b", "x\"><script>", String(repeating: "a", count: 2049)] {
            #expect(
                !(try links().authorize(transaction, sessionTransferToken: junk)).contains("session_transfer_token"))
        }
        let generic = try links(["OIDC_PROVIDER": "generic"]).authorize(transaction, sessionTransferToken: "stt")
        #expect(!generic.contains("session_transfer_token"))
    }

    /// Issue 41, item 1: the registered algorithm must be one the provider says it signs with,
    /// when it says; one line names the setting and what the provider lists.
    @Test func theSigningAlgorithmMustBeOneTheProviderLists() throws {
        let listed = try TestSettings.discovered(["id_token_signing_alg_values_supported": .array(["RS256", "HS256"])])
        #expect(try fit(["ID_TOKEN_SIGNING_ALG": "HS256"], endpoints: listed).isEmpty)
        #expect(
            try fit(["ID_TOKEN_SIGNING_ALG": "HS512"], endpoints: listed) == [
                "ID_TOKEN_SIGNING_ALG: HS512 is not among the algorithms the provider signs ID tokens with "
                    + "(RS256, HS256): set the one the application is registered for"
            ])
        let silent = try endpoints(
            authorization: "https://tenant.example.com/authorize", token: "https://tenant.example.com/oauth/token",
            jwks: "https://tenant.example.com/.well-known/jwks.json")
        #expect(try fit(["ID_TOKEN_SIGNING_ALG": "PS512"], endpoints: silent).isEmpty)
        #expect(throws: SettingsProblems.self) { try links(["ID_TOKEN_SIGNING_ALG": "none"]) }
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

    /// Auth0 gets its `audience` and no consent prompt; another provider no `audience` (unless
    /// set) and, since the scope asks for `offline_access`, `prompt=consent` (OIDC Core §11).
    @Test func auth0GetsAudienceAndOtherProvidersGetPromptConsent() throws {
        let auth0 = try links().authorize(LoginTransaction.begin(returnTo: "/"))
        #expect(auth0.contains("&audience=https%3A%2F%2Ftenant.example.com%2Fapi%2Fv2%2F&"))
        #expect(!auth0.contains("prompt="))
        let generic = ["AUTH0_DOMAIN": nil, "ISSUER_BASE_URL": "https://tenant.example.com/"]
        let other = try links(generic).authorize(LoginTransaction.begin(returnTo: "/"))
        #expect(!other.contains("audience="))
        #expect(other.contains("scope=openid%20profile%20email%20offline_access&"))
        #expect(other.hasSuffix("&prompt=consent"))
        var withoutRefresh = generic
        withoutRefresh["AUTH0_SCOPE"] = "openid profile email"
        #expect(!(try links(withoutRefresh).authorize(LoginTransaction.begin(returnTo: "/"))).contains("prompt="))
    }

    /// A provider that does not list `offline_access` in `scopes_supported` is not asked for it
    /// by default (some refuse an unknown scope); a scope the operator set is sent as set.
    @Test func theDefaultScopeFitsTheProvidersScopes() throws {
        let issuer = "https://op.example.com"
        func provider(_ scopes: [String]) throws -> TenantEndpoints {
            try TestSettings.discovered(issuer: issuer, ["scopes_supported": .array(scopes.map { .string($0) })])
        }
        let generic: [String: String?] = ["AUTH0_DOMAIN": nil, "ISSUER_BASE_URL": issuer]
        let withoutOffline = try links(generic, endpoints: try provider(["openid", "profile", "email"]))
        #expect(withoutOffline.scope == "openid profile email")
        #expect(!withoutOffline.authorize(LoginTransaction.begin(returnTo: "/")).contains("prompt="))
        let withOffline = try links(generic, endpoints: try provider(["openid", "email", "offline_access"]))
        #expect(withOffline.scope == "openid profile email offline_access")
        var set = generic
        set["AUTH0_SCOPE"] = "openid email offline_access"
        #expect(try links(set, endpoints: try provider(["openid", "email"])).scope == "openid email offline_access")
    }

    /// A provider that is not Auth0 gets the login's ID token back as `id_token_hint` (RP-Initiated
    /// Logout 1.0), which some need before they send the browser back.
    @Test func oidcLogoutCarriesTheIDTokenHintWhenKept() throws {
        let url = try links(["AUTH0_LOGOUT": "oidc"]).logout(tenantSessionID: nil, idTokenHint: "h.e.s")
        #expect(
            url.hasSuffix("&post_logout_redirect_uri=https%3A%2F%2Fdemo.example.com%2Flogged-out&id_token_hint=h.e.s"))
        #expect(!(try links().logout(tenantSessionID: nil, idTokenHint: "h.e.s")).contains("id_token_hint"))
    }

    /// Google publishes no `end_session_endpoint`: by default the session ends here only (the
    /// browser goes straight to the logged-out page); asking for `oidc` logout says it cannot be.
    @Test func aProviderWithoutEndSessionLogsOutHereOnly() throws {
        let issuer = "https://accounts.google.com"
        let google = try TestSettings.discovered(
            issuer: issuer,
            [
                "authorization_endpoint": "https://accounts.google.com/o/oauth2/v2/auth",
                "token_endpoint": "https://oauth2.googleapis.com/token",
                "jwks_uri": "https://www.googleapis.com/oauth2/v3/certs",
            ])
        let generic: [String: String?] = ["AUTH0_DOMAIN": nil, "ISSUER_BASE_URL": issuer]
        let links = try links(generic, endpoints: google)
        #expect(try fit(generic, endpoints: google).isEmpty)
        #expect(links.logout(tenantSessionID: nil, idTokenHint: "h.e.s") == "https://demo.example.com/logged-out")
        var explicit = generic
        explicit["AUTH0_LOGOUT"] = "oidc"
        #expect(try fit(explicit, endpoints: google).count == 1)
    }

    @Test func loginStartsAtTheDiscoveredAuthorizationEndpoint() throws {
        let custom = try endpoints(
            authorization: "https://login.example.com/authorize", token: "https://login.example.com/oauth/token",
            jwks: "https://login.example.com/.well-known/jwks.json")
        let url = try links(endpoints: custom).authorize(LoginTransaction.begin(returnTo: "/"))
        #expect(url.hasPrefix("https://login.example.com/authorize?response_type=code&client_id=c&"))
        #expect(url.contains("&code_challenge_method=S256"))
    }

    @Test func oidcLogoutOnATenantWithoutEndSessionStopsStartUpNamingTheSetting() throws {
        let noEndSession = try endpoints(  // no end_session_endpoint
            authorization: "https://tenant.example.com/authorize", token: "https://tenant.example.com/oauth/token",
            jwks: "https://tenant.example.com/.well-known/jwks.json")
        #expect(try fit(endpoints: noEndSession).isEmpty)
        let problems = try fit(["AUTH0_LOGOUT": "oidc"], endpoints: noEndSession)
        #expect(problems.count == 1)
        #expect(problems.first?.hasPrefix("AUTH0_LOGOUT: ") == true)
    }
}
