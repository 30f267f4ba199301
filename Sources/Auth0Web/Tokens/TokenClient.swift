import Web

/// Calls the tenant's token endpoint: the authorization code exchange (with the PKCE verifier)
/// and refresh-token renewal, authenticating the client with its `ClientCredentials`; and its
/// revocation endpoint at logout.
public struct TokenClient: Sendable {
    private let settings: RelyingPartySettings
    private let endpoints: TenantEndpoints
    private let http: any HTTPClient
    /// How the application proves itself: its method and its secret or key.
    private let credentials: ClientCredentials
    /// Sends the calls whose tokens are the product's own with a DPoP proof (`DPoP`), when on.
    private let binding: (any HTTPClient)?

    /// A client of the application `configuration` resolved; with `binding`, the login's tokens
    /// are bound (DPoP) and must come back so, while mini apps' API tokens stay bearer tokens
    /// (their apps hold no key).
    public init(_ configuration: ClientConfiguration, http: any HTTPClient, binding: (any HTTPClient)? = nil) {
        settings = configuration.settings
        endpoints = configuration.endpoints
        self.http = http
        self.binding = binding
        credentials = configuration.credentials
    }

    /// A client of the discovered `endpoints` for the application in `settings`, signing its
    /// `private_key_jwt` assertions at the time `clock` says (its configuration resolved here).
    public init(
        settings: RelyingPartySettings, endpoints: TenantEndpoints, http: any HTTPClient,
        binding: (any HTTPClient)? = nil, clock: Clock = .system
    ) throws(AuthError) {
        self.init(
            try ClientConfiguration(settings: settings, endpoints: endpoints, clock: clock), http: http,
            binding: binding)
    }

    /// Exchanges an authorization code for tokens.
    public func exchange(code: String, codeVerifier: String) throws(AuthError) -> TokenSet {
        try call(
            [
                ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", settings.callbackURL),
                ("code_verifier", codeVerifier),
            ], failure: .codeExchangeFailed)
    }

    /// Gets a new access token (and, with rotation, a new refresh token).
    public func refresh(_ refreshToken: String) throws(AuthError) -> TokenSet {
        try call(
            [
                ("grant_type", "refresh_token"), ("refresh_token", refreshToken),
            ], failure: .refreshFailed)
    }

    /// New tokens for the API `audience` with `scope` from the refresh token (Auth0's
    /// Multi-Resource Refresh Token); the answer says which audience it was asked for. Never
    /// bound: the mini app it is for holds no key.
    public func refresh(_ refreshToken: String, audience: String, scope: String) throws(AuthError) -> TokenSet {
        var tokens = try call(
            [
                ("grant_type", "refresh_token"), ("refresh_token", refreshToken), ("audience", audience),
                ("scope", scope),
            ], failure: .refreshFailed, bound: false)
        tokens.audience = audience
        return tokens
    }

    /// Pushes a login's authorization request (`parameters`, as they would be in the authorization
    /// URL) to `endpoint` with the client's credentials (RFC 9126), for the reference the browser
    /// takes to the authorization endpoint instead.
    public func push(_ parameters: [(String, String)], to endpoint: String) throws(AuthError)
        -> PushedAuthorization.Pushed
    {
        let response = try post(endpoint, parameters)
        let body = JSONValue.parse(response.body)
        guard response.status == 201 else { throw refusal(response, body, .authorizationPushFailed) }
        guard let pushed = PushedAuthorization.read(body) else {
            throw AuthError(.authorizationPushFailed, "no request_uri and expires_in in the answer")
        }
        return pushed
    }

    /// Revokes a refresh token at the revocation endpoint (at logout), so a copy of it is
    /// worthless; a tenant that publishes none is not asked.
    public func revoke(_ refreshToken: String) throws(AuthError) {
        guard let revocation = endpoints.revocation else { return }
        let response = try post(revocation, [("token", refreshToken)])
        guard response.status == 200 else { throw AuthError(.revocationFailed, "answered \(response.status)") }
    }

    /// A form POST to the tenant with the client's credentials; no answer at all is `tenantUnreachable`.
    /// `bound`: through `binding` when there is one (every call but a mini app's API token).
    private func post(_ url: String, _ form: [(String, String)], bound: Bool = true) throws(AuthError)
        -> HTTPClientResponse
    {
        let authenticated: (form: [(String, String)], headers: [(name: String, value: String)])
        do {
            // Auth0 takes its tenant's URL as an assertion's audience; elsewhere, the endpoint's own
            // address: the token endpoint's, as OpenID Connect Core §9 asks, and a pushed-request
            // endpoint's, which RFC 9126 says it accepts (and Glewlwyd requires).
            authenticated = try credentials.authenticate(
                form, audience: settings.provider.dialect.assertionAudienceIsIssuer ? endpoints.issuer : url)
        } catch {
            throw AuthError(.clientAssertionFailed, "\(error)")
        }
        let (form, credentials) = authenticated
        let request = HTTPClientRequest(
            method: "POST", url: url,
            headers: [("Content-Type", "application/x-www-form-urlencoded"), ("Accept", "application/json")]
                + credentials,
            body: Array(PercentEncoding.formEncode(form).utf8), timeoutSeconds: settings.provider.timeoutSeconds)
        do {
            return try (bound ? binding ?? http : http).send(request)
        } catch {
            switch (error as? HTTPClientError)?.kind {
            case .tooLarge: throw AuthError(.badTokenResponse, "answer over the size limit")
            case .timeout: throw AuthError(.tenantUnreachable, "timeout")
            default: throw AuthError(.tenantUnreachable, "no connection")
            }
        }
    }

    /// The error an answer other than success stands for: `failure`, unless the tenant was in
    /// trouble or refused the refresh token itself.
    private func refusal(_ response: HTTPClientResponse, _ body: JSONValue?, _ failure: AuthError.Code) -> AuthError {
        // Auth0's error body: {"error": "invalid_grant", "error_description": "..."}.
        let oauthError = body?["error"]?.string
        let detail = "\(response.status) \(oauthError ?? "status \(response.status)")"
        func refused(_ code: AuthError.Code) -> AuthError {
            AuthError(
                code, detail, answerStatus: response.status, oauthError: oauthError,
                oauthDescription: body?["error_description"]?.string)
        }
        // The tenant's own trouble says nothing about the code or the refresh token: the
        // caller may try again, and a session must not end for it.
        if response.status == 429 || response.status >= 500 { return refused(.tenantUnavailable) }
        // Only `invalid_grant` means the refresh token itself is refused (expired, revoked,
        // reused); other errors (a wrong client secret) would not be fixed by logging in again.
        if failure == .refreshFailed, oauthError == "invalid_grant" { return refused(.refreshRefused) }
        return refused(failure)
    }

    private func call(_ form: [(String, String)], failure: AuthError.Code, bound: Bool = true) throws(AuthError)
        -> TokenSet
    {
        let response = try post(endpoints.token, form, bound: bound)
        let body = JSONValue.parse(response.body)
        guard response.status == 200 else { throw refusal(response, body, failure) }
        guard let body, let accessToken = body["access_token"]?.string, !accessToken.isEmpty else {
            throw AuthError(.badTokenResponse)
        }
        // A bearer token where a bound one was asked for would be used as a bound one and refused.
        if bound, binding != nil, body["token_type"]?.string?.lowercased() != "dpop" {
            throw AuthError(.badTokenResponse, "token_type \(body["token_type"]?.string ?? "none"), not DPoP")
        }
        // `expires_in` comes from outside: a number that is not a sane count of seconds (1e20
        // would trap converting to Int64) is a bad answer, not a crash.
        let expiresIn = body["expires_in"]?.number ?? 86_400
        guard expiresIn.isFinite, expiresIn >= 0, expiresIn <= TokenSet.longestLifetime else {
            throw AuthError(.badTokenResponse, "expires_in out of range")
        }
        return TokenSet(
            accessToken: accessToken, idToken: body["id_token"]?.string, refreshToken: body["refresh_token"]?.string,
            expiresIn: Int64(expiresIn), scope: body["scope"]?.string)
    }
}
