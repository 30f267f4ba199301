import Web

/// The tokens the tenant's token endpoint answers with.
public struct TokenSet: Sendable {
    public let accessToken: String
    public let idToken: String?
    public let refreshToken: String?
    public let expiresIn: Int64
    public let scope: String?
}

/// Calls the tenant's `/oauth/token`: the authorization code exchange (with the PKCE verifier)
/// and refresh-token renewal, authenticating the client with `client_secret_post`.
public struct TokenClient: Sendable {
    private let settings: Auth0Settings
    private let http: any HTTPClient

    public init(settings: Auth0Settings, http: any HTTPClient) {
        self.settings = settings
        self.http = http
    }

    /// Exchanges an authorization code for tokens.
    public func exchange(code: String, codeVerifier: String) throws -> TokenSet {
        try call(
            [
                ("grant_type", "authorization_code"), ("client_id", settings.clientID),
                ("client_secret", settings.clientSecret), ("code", code), ("redirect_uri", settings.callbackURL),
                ("code_verifier", codeVerifier),
            ], failure: .codeExchangeFailed)
    }

    /// Gets a new access token (and, with rotation, a new refresh token).
    public func refresh(_ refreshToken: String) throws -> TokenSet {
        try call(
            [
                ("grant_type", "refresh_token"), ("client_id", settings.clientID),
                ("client_secret", settings.clientSecret), ("refresh_token", refreshToken),
            ], failure: .refreshFailed)
    }

    /// Revokes a refresh token at `/oauth/revoke` (at logout), so a copy of it is worthless.
    public func revoke(_ refreshToken: String) throws {
        let response = try post(
            "oauth/revoke",
            [("client_id", settings.clientID), ("client_secret", settings.clientSecret), ("token", refreshToken)])
        guard response.status == 200 else { throw AuthError(.refreshFailed, "revoke answered \(response.status)") }
    }

    /// A form POST to the tenant; no answer at all is `tenantUnreachable`.
    private func post(_ path: String, _ form: [(String, String)]) throws -> HTTPClientResponse {
        let request = HTTPClientRequest(
            method: "POST", url: settings.issuer + path,
            headers: [("Content-Type", "application/x-www-form-urlencoded"), ("Accept", "application/json")],
            body: Array(PercentEncoding.formEncode(form).utf8), timeoutSeconds: settings.timeoutSeconds)
        do {
            return try http.send(request)
        } catch let error as HTTPClientError {
            throw AuthError(.tenantUnreachable, error.kind == .timeout ? "timeout" : "no connection")
        }
    }

    private func call(_ form: [(String, String)], failure: AuthError.Code) throws -> TokenSet {
        let response = try post("oauth/token", form)
        let body = JSONValue.parse(response.body)
        guard response.status == 200 else {
            // Auth0's error body: {"error": "invalid_grant", "error_description": "..."}.
            let name = body?["error"]?.string ?? "status \(response.status)"
            throw AuthError(failure, "\(response.status) \(name)")
        }
        guard let body, let accessToken = body["access_token"]?.string, !accessToken.isEmpty else {
            throw AuthError(.badTokenResponse)
        }
        return TokenSet(
            accessToken: accessToken, idToken: body["id_token"]?.string, refreshToken: body["refresh_token"]?.string,
            expiresIn: Int64(body["expires_in"]?.number ?? 86_400), scope: body["scope"]?.string)
    }
}
