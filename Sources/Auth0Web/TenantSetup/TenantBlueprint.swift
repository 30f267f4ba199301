import OpenSSLCrypto
import Web

/// What this site needs of its Auth0 tenant, worked out from its settings and its mini apps:
/// the APIs, the application with its keys, the grants, the roles Action, the MFA factor and the
/// tenant setting, each as the fields a Management API document must hold (`FieldNeed`).
public struct TenantBlueprint: Sendable {
    /// One API a mini app calls.
    public struct API: Sendable, Equatable {
        /// Its identifier (the tokens' audience).
        public let audience: String
        /// The scopes the app asks.
        public let scopes: [String]
        /// True when a rule reads the token's permissions: RBAC on, permissions in the token.
        public let permissionsInTokens: Bool

        /// An API with these values.
        public init(audience: String, scopes: [String], permissionsInTokens: Bool) {
            self.audience = audience
            self.scopes = scopes
            self.permissionsInTokens = permissionsInTokens
        }
    }

    /// A public key the application proves itself or signs its requests with.
    public struct Key: Sendable, Equatable {
        /// Its RFC 7638 thumbprint, the `kid` the tenant gives it.
        public let kid: String
        /// Its public half (PEM).
        public let pem: String
        /// How it signs.
        public let algorithm: String
    }

    /// What the mini apps need beyond their APIs.
    public struct MiniAppNeeds: Sendable {
        /// Their APIs.
        public let apis: [API]
        /// The ID token claim a rule reads roles from, when one does.
        public let rolesClaim: String?
        /// True when an app asks a second factor.
        public let secondFactor: Bool

        /// These needs.
        public init(apis: [API], rolesClaim: String?, secondFactor: Bool) {
            self.apis = apis
            self.rolesClaim = rolesClaim
            self.secondFactor = secondFactor
        }
    }

    /// The application's name, by which it is found until its id is known.
    public let applicationName: String
    /// The application's client id, when the settings give one.
    public let clientID: String?
    /// The Management API's audience (its user-access grant) and the tenant's base URL.
    public let managementAudience: String
    /// The APIs.
    public let apis: [API]
    /// What the application's document must hold, from its making.
    public let application: [FieldNeed]
    /// What it must hold that the tenant takes only once its keys are named (a FAPI level,
    /// required request objects): asked for after the keys, never when it is made.
    public let applicationOnceKeyed: [FieldNeed]
    /// Its Private Key JWT keys.
    public let assertionKeys: [Key]
    /// Its request-object keys (JAR), when requests are signed.
    public let requestObjectKeys: [Key]
    /// The grants the application's users need: audience and scopes.
    public let userGrants: [(audience: String, scopes: [String])]
    /// The roles Action's name and code, when a rule reads roles.
    public let rolesAction: (name: String, code: String)?
    /// True when the OTP factor must be enabled.
    public let needsOTP: Bool
    /// What the tenant's settings must hold.
    public let tenantSettings: [FieldNeed]
    /// The database connection the application logs people in with.
    public let connectionName = "Username-Password-Authentication"

    /// The Management API's two scopes a person's own token needs (read and save their metadata).
    public static let managementUserScopes = ["read:current_user", "update:current_user_metadata"]
    /// The back-channel logout events the site handles.
    public static let logoutInitiators = [
        "rp-logout", "idp-logout", "password-changed", "session-expired", "session-revoked", "account-deleted",
    ]

    /// The blueprint of `settings` (its client id when `clientIDKnown`) and `miniApps`.
    public init(settings: RelyingPartySettings, clientIDKnown: Bool, applicationName: String, miniApps: MiniAppNeeds)
        throws
    {
        self.applicationName = applicationName
        clientID = clientIDKnown ? settings.client.id : nil
        managementAudience = settings.managementAPI
        apis = miniApps.apis
        let base = settings.baseURL
        var needs: [FieldNeed] = [
            .value(["app_type"], "regular_web"), .value(["oidc_conformant"], .bool(true)),
            .includes(["callbacks"], [.string(settings.callbackURL)]),
            .includes(["allowed_logout_urls"], [.string(settings.loggedOutURL)]),
            .includes(["grant_types"], ["authorization_code", "refresh_token"]),
            .value(["jwt_configuration", "alg"], .string(settings.provider.idTokenSigningAlgorithm.rawValue)),
            .value(["refresh_token", "rotation_type"], "rotating"),
            .value(["refresh_token", "expiration_type"], "expiring"),
            .includes(
                ["refresh_token", "policies"],
                miniApps.apis.map {
                    .object(["audience": .string($0.audience), "scope": .array($0.scopes.map(JSONValue.string))])
                }, key: "audience"),
            .includes(["oidc_logout", "backchannel_logout_urls"], [.string(base + "/backchannel-logout")]),
            .value(["oidc_logout", "backchannel_logout_initiators", "mode"], "custom"),
            .includes(
                ["oidc_logout", "backchannel_logout_initiators", "selected_initiators"],
                Self.logoutInitiators.map(JSONValue.string)),
        ]
        // Auth0 takes an initiate-login URI over https only.
        if base.hasPrefix("https://") { needs.append(.value(["initiate_login_uri"], .string(base + "/login"))) }
        assertionKeys = try settings.clientKeys.compactMap { entry in
            try entry.assertionAlgorithm.map {
                Key(kid: entry.kid, pem: try entry.key.publicPEM(), algorithm: $0.rawValue)
            }
        }
        let binding = settings.binding
        requestObjectKeys = try settings.clientKeys.compactMap { entry in
            try entry.requestObjectAlgorithm.map {
                Key(kid: entry.kid, pem: try entry.key.publicPEM(), algorithm: $0.rawValue)
            }
        }
        if settings.client.authentication == .privateKeyJWT
            || (settings.client.authentication == nil && !assertionKeys.isEmpty)
        {
            needs.append(.value(["token_endpoint_auth_method"], .null))
        } else {
            needs.append(
                .value(["token_endpoint_auth_method"], .string((settings.client.authentication ?? .post).rawValue)))
        }
        if binding.pushedAuthorization == .required {
            needs.append(.value(["require_pushed_authorization_requests"], .bool(true)))
        }
        application = needs
        applicationOnceKeyed =
            (binding.requestObjects ? [.value(["signed_request_object", "required"], .bool(true))] : [])
            + (binding.securityProfile == .fapi1Advanced ? [.value(["compliance_level"], "fapi1_adv_pkj_par")] : [])
        userGrants =
            [(settings.managementAPI, Self.managementUserScopes)] + miniApps.apis.map { ($0.audience, $0.scopes) }
        rolesAction = miniApps.rolesClaim.map {
            (
                "metadata-demo roles in ID tokens",
                "/** Puts the person's roles in ID tokens, where metadata-demo's mini-app rules read them. */\n"
                    + "exports.onExecutePostLogin = async (event, api) => {\n"
                    + "  api.idToken.setCustomClaim(\"\($0)\", event.authorization?.roles ?? []);\n};\n"
            )
        }
        needsOTP = miniApps.secondFactor
        tenantSettings =
            settings.provider.logoutMode == .oidc
            ? [.value(["oidc_logout", "rp_logout_end_session_endpoint_discovery"], .bool(true))] : []
    }

    /// What an API's document must hold.
    public static func needs(of api: API) -> [FieldNeed] {
        var needs: [FieldNeed] = [
            .includes(["scopes"], api.scopes.map { .object(["value": .string($0)]) }, key: "value"),
            .value(["allow_offline_access"], .bool(true)),
        ]
        if api.permissionsInTokens {
            needs += [.value(["enforce_policies"], .bool(true)), .value(["token_dialect"], "access_token_authz")]
        }
        return needs
    }
}
