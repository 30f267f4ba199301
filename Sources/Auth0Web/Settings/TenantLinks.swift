import Web

/// The tenant's addresses the browser is sent to: where a login starts and where a logout ends.
public struct TenantLinks: Sendable {
    private let settings: RelyingPartySettings
    private let endpoints: TenantEndpoints
    /// The scopes a login asks for: the setting; but the default asks another provider for
    /// `offline_access` only when its `scopes_supported` lists it (or it publishes no list), since
    /// some refuse a scope they do not know, and default settings must log in everywhere.
    public let scope: String
    /// `prompt=consent` goes with `offline_access` to a provider that is not Auth0.
    private let asksConsent: Bool
    /// Where logins push their authorization request first (RFC 9126), or nil when they do not.
    public let pushEndpoint: String?
    /// The DPoP key's thumbprint when tokens are bound (`dpop_jkt`, RFC 9449 §10: the code is
    /// then bound to the key too, so a code stolen on its way back is worthless without it).
    private let dpopKeyThumbprint: String?

    /// Links for the application `settings` on the tenant whose endpoints were discovered (its
    /// configuration resolved here).
    public init(settings: RelyingPartySettings, endpoints: TenantEndpoints) throws(AuthError) {
        self.init(try ClientConfiguration(settings: settings, endpoints: endpoints))
    }

    /// Links for the application `configuration` resolved.
    public init(_ configuration: ClientConfiguration) {
        let (settings, endpoints) = (configuration.settings, configuration.endpoints)
        self.settings = settings
        self.endpoints = endpoints
        var scopes = settings.provider.scope.split(separator: " ")
        if settings.provider.dialect.asksConsentForOfflineAccess, settings.provider.scopeIsDefault,
            let supported = endpoints.scopes,
            !supported.contains("offline_access")
        {
            scopes.removeAll { $0 == "offline_access" }
        }
        scope = scopes.joined(separator: " ")
        asksConsent = settings.provider.dialect.asksConsentForOfflineAccess && scopes.contains("offline_access")
        pushEndpoint = configuration.pushEndpoint
        dpopKeyThumbprint = configuration.dpopKey.flatMap(JWKThumbprint.p256)
    }

    /// The authorization URL that starts Universal Login for a transaction: code flow with PKCE
    /// (S256), `state` and `nonce`; `audience` when there is one (an Auth0 parameter); and, asking
    /// another provider for `offline_access`, `prompt=consent`, which OpenID Connect Core §11
    /// requires for it (Auth0 needs no such prompt, and would show one at every login).
    /// `sessionTransferToken` (Auth0's Native to Web SSO: the iOS app exchanged its refresh token
    /// for it and opened `/login` with it) is passed on as Auth0 documents, in the query; with
    /// another provider, or when it is not an opaque token's characters, it is left out.
    public func authorize(
        _ transaction: LoginTransaction, uiLocales: String? = nil, sessionTransferToken: String? = nil
    ) -> String {
        authorize(
            authorizationParameters(transaction, uiLocales: uiLocales, sessionTransferToken: sessionTransferToken))
    }

    /// The authorization URL carrying `parameters` (a transaction's, or its request object's).
    func authorize(_ parameters: [(String, String)]) -> String {
        endpoints.authorization + "?" + PercentEncoding.formEncode(parameters)
    }

    /// The application's client id, which a request object travels beside.
    var clientID: String { settings.client.id }

    /// The authorization URL for a request that was pushed: the client and the provider's
    /// reference to the rest (RFC 9126 §4).
    public func authorize(pushed: PushedAuthorization.Pushed) -> String {
        endpoints.authorization + "?"
            + PercentEncoding.formEncode([("client_id", settings.client.id), ("request_uri", pushed.requestURI)])
    }

    /// The parameters of a transaction's authorization request, in the URL or pushed (see `authorize`).
    public func authorizationParameters(
        _ transaction: LoginTransaction, uiLocales: String? = nil, sessionTransferToken: String? = nil
    ) -> [(String, String)] {
        var pairs = [
            ("response_type", "code"), ("client_id", settings.client.id), ("redirect_uri", settings.callbackURL),
            ("scope", scope),
        ]
        if let audience = settings.provider.audience { pairs.append(("audience", audience)) }
        pairs += [
            ("state", transaction.state), ("nonce", transaction.nonce),
            ("code_challenge", PKCE.challenge(for: transaction.codeVerifier)), ("code_challenge_method", "S256"),
        ]
        if asksConsent { pairs.append(("prompt", "consent")) }
        if let dpopKeyThumbprint { pairs.append(("dpop_jkt", dpopKeyThumbprint)) }
        // Universal Login's language (space-separated BCP 47 tags; the first it has wins).
        if let uiLocales { pairs.append(("ui_locales", uiLocales)) }
        pairs += transaction.stepUp?.parameters ?? []
        if settings.provider.dialect.takesSessionTransferToken, let token = sessionTransferToken,
            Self.isOpaqueToken(token)
        {
            pairs.append(("session_transfer_token", token))
        }
        return pairs
    }

    /// 1 to 2,048 of the characters a token in a URL is made of (RFC 3986's unreserved ones).
    static func isOpaqueToken(_ text: String) -> Bool {
        (1...2048).contains(text.utf8.count) && text.utf8.allSatisfy(PercentEncoding.isUnreserved)
    }

    /// Where to send the browser to end the tenant's session too: Auth0's `/v2/logout`, or the
    /// discovered `end_session_endpoint` with `logout_hint` and, when the session kept it,
    /// `id_token_hint` (the start-up check makes sure a tenant asked for `oidc` publishes one).
    public func logout(tenantSessionID: String?, idTokenHint: String? = nil) -> String {
        switch settings.provider.logoutMode {
        case .oidc:
            if let endSession = endpoints.endSession {
                var pairs = [("client_id", settings.client.id), ("post_logout_redirect_uri", settings.loggedOutURL)]
                if let tenantSessionID { pairs.append(("logout_hint", tenantSessionID)) }
                if let idTokenHint { pairs.append(("id_token_hint", idTokenHint)) }
                return endSession + "?" + PercentEncoding.formEncode(pairs)
            }
            // A provider with no logout endpoint: the session ends here; the provider's stays.
            if settings.provider.dialect.logsOutHereWithoutEndSession { return settings.loggedOutURL }
            fallthrough
        case .v2:
            return endpoints.auth0Logout + "?"
                + PercentEncoding.formEncode([("client_id", settings.client.id), ("returnTo", settings.loggedOutURL)])
        }
    }
}
