import Web

extension TenantConfig {
    /// An application registered at the tenant.
    public struct Client: Sendable {
        /// Its display name.
        public let name: String
        /// `client_id`.
        public let clientID: String
        /// `client_secret`; nil for a public application (`token_endpoint_auth_method: none`,
        /// a native app), which proves nothing at the token endpoint but its `client_id`.
        public let clientSecret: String?
        /// Allowed Callback URLs.
        public let callbacks: [String]
        /// Allowed Logout URLs.
        public let logoutURLs: [String]
        /// Back-channel logout URLs (`oidc_logout.backchannel_logout_urls`): where logout tokens go.
        public let backchannelLogoutURLs: [String]
        /// `token_endpoint_auth_method` when the document names `client_secret_basic` or
        /// `client_secret_post`: the secret is then taken that way only, as Auth0 takes it; nil
        /// (the tenant file's applications that name none) takes either.
        public var secretMethod: String? = nil
        /// `grant_types`: what it may ask the token endpoint for (`refresh_token` among them, or
        /// its refresh tokens are refused).
        public let grantTypes: [String]
        /// `session_transfer.can_create_session_transfer_token`: it may exchange a refresh token
        /// for a session transfer token (a native app; Native to Web SSO).
        public let canCreateSessionTransferToken: Bool
        /// `session_transfer.enforce_device_binding`: `ip` binds its tokens to the address they
        /// were issued to; nil binds them to nothing.
        public let sessionTransferBinding: String?
        /// `session_transfer.allowed_authentication_methods`: how a session transfer token may
        /// reach `/authorize` for this (web) application: `query` and/or `cookie`.
        public let sessionTransferMethods: [String]
        /// `jwt_configuration.alg`: how its ID tokens are signed, `RS256` (the default) with the
        /// tenant's key, `PS256` likewise, or `HS256` with its client secret (the Management API's
        /// application setting, "JSON Web Token Signature Algorithm").
        public let idTokenAlgorithm: String
        /// `refresh_token.policies`: the APIs its refresh tokens may be exchanged for (Multi-Resource
        /// Refresh Token).
        public let refreshTokenPolicies: [RefreshTokenPolicy]
        /// `require_pushed_authorization_requests`: `/authorize` refuses a request it was not
        /// pushed (the application setting "Require Pushed Authorization Requests (PAR)").
        public let requiresPushedAuthorization: Bool
        /// Its Private Key JWT credentials: with any, it proves itself by a signed assertion
        /// alone (`private_key_jwt`), never its secret.
        public let credentials: [ClientCredential]
        /// `signed_request_object.credentials`: the keys its request objects (JAR) are checked with.
        public var requestObjectKeys: [ClientCredential] = []
        /// `signed_request_object.required`: every authorization request must be a request object.
        public var requiresRequestObjects = false
        /// `compliance_level`: `fapi1_adv_pkj_par` (FAPI 1.0 Advanced with Private Key JWT and
        /// PAR, as Auth0's "Configure FAPI Compliance" lists its rules), or nil.
        public var complianceLevel: String? = nil

        /// True under a FAPI compliance level.
        var isFAPI: Bool { complianceLevel != nil }
    }

    /// An application's `compliance_level`: only `fapi1_adv_pkj_par` is tried here (the mTLS one
    /// needs client certificates at the TLS layer, which this tenant's loopback HTTP has not).
    static func complianceLevel(_ entry: JSONValue, id: String, _ problems: inout [String]) -> String? {
        guard let level = entry["compliance_level"]?.string else { return nil }
        guard level == "fapi1_adv_pkj_par" else {
            problems.append("\(id): compliance_level must be fapi1_adv_pkj_par (or left out)")
            return nil
        }
        if entry["client_authentication_methods"]?["private_key_jwt"] == nil {
            problems.append("\(id): fapi1_adv_pkj_par needs private_key_jwt credentials")
        }
        return level
    }
}

extension TenantConfig.Client {
    /// The grant types an application is given when it names none (Auth0's for a regular web app).
    static let defaultGrantTypes = ["authorization_code", "implicit", "refresh_token", "client_credentials"]

    /// The application an Auth0 client document describes (the tenant file's entry, or what the
    /// Management API stored); nil, with one line per problem naming the application, when it
    /// cannot log anyone in.
    init?(document entry: JSONValue, problems: inout [String]) {
        let start = problems.count
        let isPublic = entry["token_endpoint_auth_method"]?.string == "none"
        let secret = entry["client_secret"]?.string
        let id = entry["client_id"]?.string ?? ""
        let credentials = ClientCredential.all(in: entry, id: id, problems: &problems)
        guard !id.isEmpty, isPublic || secret != nil || !credentials.isEmpty else {
            problems.append("a client has no client_id, or neither a client_secret nor credentials")
            return nil
        }
        let transfer = entry["session_transfer"]
        let algorithm = entry["jwt_configuration"]?["alg"]?.string ?? "RS256"
        if !["RS256", "PS256", "HS256"].contains(algorithm) || (algorithm == "HS256" && secret == nil) {
            problems.append("\(id): jwt_configuration.alg must be RS256, PS256 or HS256 (HS256: with a secret)")
        }
        let strings = { (value: JSONValue?) in value?.array?.compactMap(\.string) ?? [] }
        self.init(
            name: entry["name"]?.string ?? id, clientID: id, clientSecret: secret,
            callbacks: strings(entry["callbacks"]), logoutURLs: strings(entry["allowed_logout_urls"]),
            backchannelLogoutURLs: strings(entry["oidc_logout"]?["backchannel_logout_urls"]),
            grantTypes: entry["grant_types"] == nil ? Self.defaultGrantTypes : strings(entry["grant_types"]),
            canCreateSessionTransferToken: transfer?["can_create_session_transfer_token"]?.bool ?? false,
            sessionTransferBinding: transfer?["enforce_device_binding"]?.string.flatMap { $0 == "none" ? nil : $0 },
            sessionTransferMethods: strings(transfer?["allowed_authentication_methods"]), idTokenAlgorithm: algorithm,
            refreshTokenPolicies: RefreshTokenPolicy.all(in: entry),
            requiresPushedAuthorization: entry["require_pushed_authorization_requests"]?.bool ?? false,
            credentials: credentials,
            requestObjectKeys: ClientCredential.requestObjectKeys(in: entry, id: id, problems: &problems),
            requiresRequestObjects: entry["signed_request_object"]?["required"]?.bool ?? false,
            complianceLevel: TenantConfig.complianceLevel(entry, id: id, &problems))
        let method = entry["token_endpoint_auth_method"]?.string ?? ""
        secretMethod = ["client_secret_basic", "client_secret_post"].contains(method) ? method : nil
        if problems.count > start { return nil }
    }
}
