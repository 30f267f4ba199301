import OpenSSLCrypto
import Web

/// Auth0's Multi-Resource Refresh Token: a refresh token exchanged (`grant_type=refresh_token`
/// with `audience` and `scope`) for an access token to another API that one of the application's
/// `refresh_token.policies` names. The token is for that API alone, its scopes those asked (all
/// the policy's when none are) that the policy and the API allow and, with RBAC, that the person
/// holds (and, with the API's "Add Permissions in the Access Token", all the person's permissions
/// for it as `permissions`), living the API's `token_lifetime`; the refresh token rotates as on any exchange. An audience no policy names is silently
/// ignored: the exchange answers for the login's own audience.
extension DevTenant {
    /// The policy and API for `params`' audience, when the exchange is a multi-resource one.
    func multiResourceTarget(_ params: [String: String], client: TenantConfig.Client, grant: RefreshGrant)
        -> (policy: RefreshTokenPolicy, api: ResourceServer)?
    {
        guard let audience = params["audience"], audience != grant.audience,
            let policy = client.refreshTokenPolicies.first(where: { $0.audience == audience }),
            let api = directory.resourceServer(audience)
        else { return nil }
        return (policy, api)
    }

    /// The access token for `api` and the rotated refresh token of `grant`'s family.
    func issueAPIToken(
        user: TenantUser, client: TenantConfig.Client, grant: RefreshGrant, policy: RefreshTokenPolicy,
        api: ResourceServer, asked: String?
    ) -> Response {
        let wanted = asked.map { $0.split(separator: " ").map(String.init) } ?? policy.scope
        let held = api.enforcesPolicies ? Set(config.permissions(of: user.userID, for: api.identifier)) : nil
        let scopes = wanted.filter {
            policy.scope.contains($0) && api.scopes.contains($0) && (held?.contains($0) ?? true)
        }
        let scope = scopes.joined(separator: " ")
        let issuedAt = now().rounded(.down)
        let lifetime = Double(api.tokenLifetime ?? config.accessTokenLifetime)
        var claims: [String: JSONValue] = [
            "iss": .string(config.issuer), "sub": .string(user.userID), "aud": .string(api.identifier),
            "iat": .number(issuedAt), "exp": .number(issuedAt + lifetime),
            "azp": .string(client.clientID), "scope": .string(scope),
        ]
        // Every permission the person holds for the API, whatever was asked (the scope says what
        // was granted of what was asked).
        addAuthenticationClaims(&claims, authTime: grant.authTime, multiFactor: grant.multiFactor)
        // The same Action lists the person's roles for APIs (a provider with many groups makes
        // large tokens this way: the check must hand them on whole or say it cannot).
        if let namespace = config.accessTokenClaimsNamespace, let roles = config.roles[user.userID], !roles.isEmpty {
            claims[namespace + "roles"] = .array(roles.map(JSONValue.string))
        }
        if api.addsPermissions {
            let permissions = config.permissions(of: user.userID, for: api.identifier).filter(api.scopes.contains)
            claims["permissions"] = .array(permissions.map(JSONValue.string))
        }
        do {
            var body: [String: JSONValue] = [
                "access_token": .string(try signer.sign(claims)), "token_type": "Bearer", "scope": .string(scope),
                "expires_in": .number(lifetime),
            ]
            var rotated = grant  // the same family, login and expiry: only the token is new
            rotated.used = false
            body["refresh_token"] = .string(try store.addRefreshToken(rotated))
            log(.info, "multi-resource token issued", ["client": client.clientID, "audience": api.identifier])
            var response = Response.json(JSONValue.object(body).serialized())
            response.add("Cache-Control", "no-store")
            return response
        } catch {
            log(.error, "token signing failed", ["error": "\(error)"])
            return oauthError(500, "server_error", "The tenant could not issue tokens")
        }
    }

    /// What `actions.access_token_claims` stands for: a post-login Action that tells APIs how the
    /// person authenticated (`api.accessToken.setCustomClaim`), under its namespace: `auth_time`,
    /// and `amr` (`["mfa"]` after the second factor). Auth0 puts `amr` and `acr` in ID tokens
    /// only; an API that asks for a second factor (RFC 9470) reads these.
    func addAuthenticationClaims(_ claims: inout [String: JSONValue], authTime: Double?, multiFactor: Bool) {
        guard let namespace = config.accessTokenClaimsNamespace else { return }
        if let authTime { claims[namespace + "auth_time"] = .number(authTime.rounded(.down)) }
        claims[namespace + "amr"] = .array(multiFactor ? ["pwd", "mfa"] : ["pwd"])
    }
}
