import Web

/// Asks the provider's UserInfo endpoint for the claims an ID token left out (OpenID Connect
/// Core §5.3): a provider may give name and email only there. Auth0 puts them in the ID token,
/// so its logins make no such call.
public struct UserInfoClient: Sendable {
    /// The profile claims the pages show; an ID token holding these needs no UserInfo call.
    static let shownClaims = ["name", "email"]

    private let url: String
    private let http: any HTTPClient
    private let timeoutSeconds: Double

    /// A client of the provider's UserInfo endpoint for `client`, when the provider is not Auth0;
    /// nil when there is no call to make (Auth0, or no UserInfo endpoint published).
    public init?(_ client: ClientConfiguration, http: any HTTPClient) {
        let provider = client.settings.provider
        guard provider.dialect.completesProfileFromUserInfo, let url = client.endpoints.userinfo else { return nil }
        self.url = url
        self.http = http
        timeoutSeconds = provider.timeoutSeconds
    }

    /// `claims` (the ID token's, verified) completed from UserInfo when they lack a shown claim:
    /// the ID token's own claims win, UserInfo only fills gaps. Its `sub` must be the ID token's
    /// (§5.3.2), else the login is refused: the answer could be another person's.
    public func complete(_ claims: JSONValue, accessToken: String) throws(AuthError) -> JSONValue {
        guard var merged = claims.object, Self.shownClaims.contains(where: { merged[$0] == nil }) else {
            return claims
        }
        let response: HTTPClientResponse
        do {
            response = try http.send(
                HTTPClientRequest(
                    method: "GET", url: url,
                    headers: [("Authorization", "Bearer " + accessToken), ("Accept", "application/json")],
                    timeoutSeconds: timeoutSeconds))
        } catch {
            throw AuthError(
                .tenantUnreachable, (error as? HTTPClientError)?.kind == .timeout ? "timeout" : "no connection")
        }
        if response.status == 429 || response.status >= 500 {
            throw AuthError(.tenantUnavailable, "userinfo \(response.status)", answerStatus: response.status)
        }
        guard response.status == 200 else {
            throw AuthError(.userinfoFailed, "\(response.status)", answerStatus: response.status)
        }
        // A signed or encrypted answer (application/jwt) is only sent to a client registered for
        // one; this one is not, so anything but a JSON object is a bad answer.
        guard let answer = JSONValue.parse(response.body)?.object else { throw AuthError(.userinfoFailed, "not JSON") }
        guard let sub = answer["sub"]?.string, sub == claims["sub"]?.string else {
            throw AuthError(.userinfoWrongSubject)
        }
        for (name, value) in answer where merged[name] == nil { merged[name] = value }
        return .object(merged)
    }
}
