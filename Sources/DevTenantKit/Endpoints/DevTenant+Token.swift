import OpenSSLCrypto
import Web

/// `/oauth/token` (authorization code with PKCE, refresh tokens with rotation and reuse
/// detection) and `/userinfo`.
extension DevTenant {
    func token(_ request: Request) -> Response {
        if let status = config.faults.tokenFailStatus {
            // As Auth0 answers when rate-limited or in trouble: an OAuth error body, nothing used up.
            return status == 429
                ? oauthError(429, "too_many_requests", "Global limit has been reached")
                : oauthError(status, "server_error", "The tenant is having trouble")
        }
        let params: [String: String]
        do { params = try tokenParameters(request) } catch { return error.answer }
        guard let client = authenticatedClient(request, params) else {
            return oauthError(401, "access_denied", "Unauthorized")
        }
        // A DPoP proof binds the tokens issued to its key (RFC 9449), when the tenant allows DPoP.
        let proof = config.allowsDPoP ? checkProof(request, htu: proofTarget(request), accessToken: nil) : .absent
        if let refusal = tokenProofRefusal(proof) { return refusal }
        var jkt: String?
        if case .valid(let thumbprint) = proof { jkt = thumbprint }
        // Tests count grants by type (one refresh per token across workers, say).
        log(
            .info, "token grant",
            ["grant_type": params["grant_type"] ?? "", "client": client.clientID, "bound": jkt == nil ? "no" : "dpop"])
        // Each grant only as the application's `grant_types` allow it.
        let grantType = params["grant_type"] ?? ""
        if ["authorization_code", "refresh_token", "client_credentials"].contains(grantType),
            !client.grantTypes.contains(grantType)
        {
            return oauthError(403, "unauthorized_client", "Grant type '\(grantType)' not allowed for the client.")
        }
        switch params["grant_type"] {
        case "authorization_code": return exchangeCode(params, client: client, jkt: jkt)
        case "refresh_token" where params["audience"] == config.sessionTransferAudience:
            return sessionTransfer(params, client: client, from: request.remoteAddress)
        case "refresh_token": return refresh(params, client: client, jkt: jkt)
        case "client_credentials": return clientCredentials(params, client: client)
        default:
            return oauthError(400, "unsupported_grant_type", "Unsupported grant type: \(params["grant_type"] ?? "")")
        }
    }

    /// `POST /oauth/revoke`: revokes a refresh token (and the tokens rotated with it).
    func revoke(_ request: Request) -> Response {
        let params: [String: String]
        do { params = try tokenParameters(request) } catch { return error.answer }
        guard let client = authenticatedClient(request, params) else {
            return oauthError(401, "access_denied", "Unauthorized")
        }
        guard let token = params["token"], !token.isEmpty else {
            return oauthError(400, "invalid_request", "Missing required parameter: token")
        }
        do {
            try store.revokeRefreshToken(token, clientID: client.clientID)
        } catch {
            log(.error, "saving the tenant state failed", ["error": "\(error)"])
            return oauthError(500, "server_error", "The tenant could not revoke the token")
        }
        return Response(status: 200)
    }

    /// The client by `private_key_jwt`, `client_secret_basic`, else `client_secret_post`.
    func authenticatedClient(_ request: Request, _ params: [String: String]) -> TenantConfig.Client? {
        if params["client_assertion"] != nil || params["client_assertion_type"] != nil {
            return assertedClient(params)
        }
        // client_secret_basic, else client_secret_post.
        var clientID = params["client_id"]
        var secret = params["client_secret"]
        var method = "client_secret_post"
        if let basic = request.header("authorization"), basic.lowercased().hasPrefix("basic "),
            let decoded = Base64URL.decodeStandard(basic.dropFirst(6)).flatMap({ String(validating: $0, as: UTF8.self) }
            ),
            let colon = decoded.firstIndex(of: ":")
        {
            clientID = PercentEncoding.decodeOrSelf(String(decoded[..<colon]))
            secret = PercentEncoding.decodeOrSelf(String(decoded[decoded.index(after: colon)...]))
            method = "client_secret_basic"
        }
        // An application with Private Key JWT credentials proves itself with them alone.
        guard let clientID, let client = directory.client(clientID), client.credentials.isEmpty,
            client.secretMethod == nil || client.secretMethod == method
        else { return nil }
        // A public application (a native app) has no secret to prove, and must not send one.
        guard let expected = client.clientSecret else { return secret == nil ? client : nil }
        guard let secret, ConstantTime.equal(Array(secret.utf8), Array(expected.utf8)) else { return nil }
        return client
    }

    private func exchangeCode(_ params: [String: String], client: TenantConfig.Client, jkt: String?) -> Response {
        guard let code = params["code"], let grant = store.takeCode(code), grant.clientID == client.clientID else {
            return oauthError(403, "invalid_grant", "Invalid authorization code")
        }
        guard params["redirect_uri"] == grant.redirectURI else {
            return oauthError(403, "invalid_grant", "Invalid authorization code")
        }
        // RFC 9449 §10: a code bound to a key is redeemed only with a proof by that key.
        if let bound = grant.dpopJKT, bound != jkt {
            return oauthError(400, "invalid_dpop_proof", "The DPoP proof's key is not the one the code is bound to")
        }
        if let challenge = grant.codeChallenge {
            let verifier = params["code_verifier"] ?? ""
            let computed =
                grant.challengeMethod == "S256" ? Base64URL.encode(SHA256.hash(Array(verifier.utf8))) : verifier
            guard !verifier.isEmpty, ConstantTime.equal(Array(computed.utf8), Array(challenge.utf8)) else {
                return oauthError(403, "invalid_grant", "Failed to verify code verifier")
            }
        }
        guard let user = store.user(id: grant.userID), !user.blocked else {
            return oauthError(403, "invalid_grant", "Invalid authorization code")
        }
        return issueTokens(
            Issuance(
                user: user, clientID: client.clientID, scope: grant.scope, audience: grant.audience,
                sessionID: grant.sessionID, authTime: grant.authTime, multiFactor: grant.multiFactor, jkt: jkt,
                nonce: grant.nonce, stateHash: grant.stateToHash.map(Self.stateHash)))
    }

    /// `s_hash`, as Auth0 adds it at its FAPI compliance levels ("Configure FAPI Compliance"): the
    /// left half of the SHA-256 of `state`, base64url (this tenant signs ID tokens with SHA-256 only).
    static func stateHash(_ state: String) -> String {
        Base64URL.encode(SHA256.hash(Array(state.utf8)).prefix(16))
    }

    /// A machine-to-machine token for the Management API with the scopes of the application's
    /// client grant (all of them, or those asked for that it holds).
    private func clientCredentials(_ params: [String: String], client: TenantConfig.Client) -> Response {
        guard params["audience"] == config.managementAudience, !directory.managementScopes(of: client.clientID).isEmpty
        else {
            return oauthError(
                403, "access_denied", "Client is not authorized to access \"\(params["audience"] ?? "")\".")
        }
        var scopes = directory.managementScopes(of: client.clientID)
        if let asked = params["scope"] {
            let wanted = Set(asked.split(separator: " ").map(String.init))
            scopes = scopes.filter { wanted.contains($0) }
        }
        let issuedAt = now().rounded(.down)
        let scope = scopes.joined(separator: " ")
        do {
            let token = try signer.sign([
                "iss": .string(config.issuer), "sub": .string(client.clientID + "@clients"),
                "aud": .string(config.managementAudience), "iat": .number(issuedAt),
                "exp": .number(issuedAt + Double(config.accessTokenLifetime)), "azp": .string(client.clientID),
                "scope": .string(scope), "gty": "client-credentials",
            ])
            var response = Response.json(
                JSONValue.object([
                    "access_token": .string(token), "scope": .string(scope),
                    "expires_in": .number(Double(config.accessTokenLifetime)), "token_type": "Bearer",
                ]).serialized())
            response.add("Cache-Control", "no-store")
            return response
        } catch {
            log(.error, "token signing failed", ["error": "\(error)"])
            return oauthError(500, "server_error", "The tenant could not issue tokens")
        }
    }

    private func refresh(_ params: [String: String], client: TenantConfig.Client, jkt: String?) -> Response {
        let outcome = params["refresh_token"].flatMap { try? store.useRefreshToken($0, clientID: client.clientID) }
        if case .reused? = outcome {
            // Auth0's reuse detection: a spent token presented again revokes its whole family.
            log(.warning, "refresh token reuse detected: family revoked", ["client": client.clientID])
        }
        guard case .valid(let grant)? = outcome, let user = store.user(id: grant.userID), !user.blocked
        else { return oauthError(403, "invalid_grant", "Unknown or invalid refresh token.") }
        if let (policy, api) = multiResourceTarget(params, client: client, grant: grant) {
            return issueAPIToken(
                user: user, client: client, grant: grant, policy: policy, api: api, asked: params["scope"])
        }
        var scope = grant.scope
        // An audience no policy names is ignored, and the scopes asked with it: the answer is
        // for the login's own audience, as if neither had been sent.
        let ignored = params["audience"].map { $0 != grant.audience } ?? false
        if let asked = params["scope"], !ignored {
            let granted = Set(grant.scope.split(separator: " "))
            guard Set(asked.split(separator: " ")).isSubset(of: granted) else {
                return oauthError(403, "invalid_scope", "Scope must be a subset of the original grant")
            }
            scope = asked
        }
        return issueTokens(
            Issuance(
                user: user, clientID: client.clientID, scope: scope, audience: grant.audience,
                sessionID: grant.sessionID, authTime: grant.authTime, multiFactor: grant.multiFactor, jkt: jkt,
                family: (grant.family, grant.expiresAt)))
    }

    /// Native to Web SSO: a refresh token of a native app exchanged for a session transfer
    /// token, as Auth0 answers it (`access_token` is the token, `issued_token_type` says so,
    /// `token_type` is `N_A`), bound to the caller's address when the app asks for that.
    private func sessionTransfer(_ params: [String: String], client: TenantConfig.Client, from address: String)
        -> Response
    {
        guard client.canCreateSessionTransferToken else {
            return oauthError(
                403, "access_denied", "Client is not authorized to access \"\(config.sessionTransferAudience)\".")
        }
        guard let token = params["refresh_token"], let grant = store.peekRefreshToken(token, clientID: client.clientID),
            let user = store.user(id: grant.userID), !user.blocked
        else { return oauthError(403, "invalid_grant", "Unknown or invalid refresh token.") }
        let transfer = store.addTransferToken(
            TransferGrant(
                userID: user.userID, boundAddress: client.sessionTransferBinding == "ip" ? address : nil,
                expiresAt: now() + Double(config.sessionTransferLifetime)))
        log(.info, "session transfer token issued", ["client": client.clientID])
        var response = Response.json(
            JSONValue.object([
                "access_token": .string(transfer),
                "issued_token_type": "urn:auth0:params:oauth:token-type:session_transfer_token",
                "token_type": "N_A", "expires_in": .number(Double(config.sessionTransferLifetime)),
            ]).serialized())
        response.add("Cache-Control", "no-store")
        return response
    }

    private func issueTokens(_ issuance: Issuance) -> Response {
        // API scopes are granted only for the Management API audience.
        let apiScopes: Set<String> = ["read:current_user", "update:current_user_metadata"]
        let oidcScopes: Set<String> = ["openid", "profile", "email", "offline_access"]
        let granted = issuance.scope.split(separator: " ").map(String.init).filter {
            oidcScopes.contains($0) || (issuance.audience == config.managementAudience && apiScopes.contains($0))
        }
        let scope = granted.joined(separator: " ")
        let issuedAt = now().rounded(.down)
        var audiences: [JSONValue] = [.string(config.userinfoAudience)]
        if let audience = issuance.audience { audiences.insert(.string(audience), at: 0) }
        let client = directory.client(issuance.clientID)
        do {
            var accessClaims: [String: JSONValue] = [
                "iss": .string(config.issuer), "sub": .string(issuance.user.userID), "aud": .array(audiences),
                "iat": .number(issuedAt), "exp": .number(issuedAt + Double(config.accessTokenLifetime)),
                "azp": .string(issuance.clientID), "scope": .string(scope),
            ]
            addAuthenticationClaims(&accessClaims, authTime: issuance.authTime, multiFactor: issuance.multiFactor)
            if let jkt = issuance.jkt { accessClaims["cnf"] = .object(["jkt": .string(jkt)]) }
            var body: [String: JSONValue] = [
                "access_token": .string(try signer.sign(accessClaims)),
                "token_type": issuance.jkt == nil ? "Bearer" : "DPoP", "scope": .string(scope),
                "expires_in": .number(Double(config.accessTokenLifetime)),
            ]
            if granted.contains("openid") {
                body["id_token"] = .string(
                    try signer.sign(
                        idTokenClaims(issuance, issuedAt: issuedAt), as: client?.idTokenAlgorithm ?? "RS256",
                        secret: client?.clientSecret))
            }
            if granted.contains("offline_access"), client?.grantTypes.contains("refresh_token") == true {
                body["refresh_token"] = .string(
                    try store.addRefreshToken(
                        RefreshGrant(
                            family: issuance.family?.id ?? Base64URL.encode(SecureRandom.bytes(12)),
                            clientID: issuance.clientID, userID: issuance.user.userID, scope: scope,
                            audience: issuance.audience, sessionID: issuance.sessionID,
                            expiresAt: issuance.family?.expiresAt ?? issuedAt + Double(config.refreshTokenLifetime),
                            used: false, authTime: issuance.authTime, multiFactor: issuance.multiFactor)))
            }
            var response = Response.json(JSONValue.object(body).serialized())
            response.add("Cache-Control", "no-store")
            response.add("Pragma", "no-cache")
            return response
        } catch {
            log(.error, "token signing failed", ["error": "\(error)"])
            return oauthError(500, "server_error", "The tenant could not issue tokens")
        }
    }

    /// An ID token's claims for `issuance`: the person's profile, the tenant session, the roles
    /// while the roles Action is bound, the login's nonce and state hash, how they authenticated.
    private func idTokenClaims(_ issuance: Issuance, issuedAt: Double) -> [String: JSONValue] {
        var claims = issuance.user.profileClaims
        claims["iss"] = .string(config.issuer)
        claims["aud"] = .string(issuance.clientID)
        claims["iat"] = .number(issuedAt)
        claims["exp"] = .number(issuedAt + Double(config.idTokenLifetime))
        claims["sid"] = .string(issuance.sessionID)
        if let rolesClaim = directory.rolesClaim {
            claims[rolesClaim] = .array((config.roles[issuance.user.userID] ?? []).map(JSONValue.string))
        }
        if let nonce = issuance.nonce { claims["nonce"] = .string(nonce) }
        if let stateHash = issuance.stateHash { claims["s_hash"] = .string(stateHash) }
        if let authTime = issuance.authTime { claims["auth_time"] = .number(authTime.rounded(.down)) }
        if issuance.multiFactor {
            claims["amr"] = .array(["mfa"])
            claims["acr"] = .string(Self.multiFactorPolicy)
        }
        return claims
    }
}
