/// The request bodies the tenant's Management API takes, as Auth0's Management API v2 documents
/// them (the properties this tenant keeps or honours; others Auth0 takes are refused here as
/// unknown, so a caller relying on one learns it at once).
enum ManagementShapes {
    static let grantTypes: PayloadShape = .array(
        .oneOf([
            "authorization_code", "implicit", "refresh_token", "client_credentials", "password",
            "http://auth0.com/oauth/grant-type/password-realm", "http://auth0.com/oauth/grant-type/mfa-oob",
            "http://auth0.com/oauth/grant-type/mfa-otp", "http://auth0.com/oauth/grant-type/mfa-recovery-code",
            "urn:ietf:params:oauth:grant-type:device_code",
        ]))

    static let refreshToken: PayloadShape = .object(
        [
            "rotation_type": .oneOf(["rotating", "non-rotating"]),
            "expiration_type": .oneOf(["expiring", "non-expiring"]), "leeway": .integer, "token_lifetime": .integer,
            "idle_token_lifetime": .integer, "infinite_token_lifetime": .boolean,
            "infinite_idle_token_lifetime": .boolean,
            "policies": .array(
                .object(["audience": .string, "scope": PayloadShape.strings], required: ["audience", "scope"])),
        ], required: ["rotation_type", "expiration_type"])

    static let oidcLogout: PayloadShape = .object([
        "backchannel_logout_urls": PayloadShape.strings,
        "backchannel_logout_initiators": .object(
            [
                "mode": .oneOf(["custom", "all"]),
                "selected_initiators": .array(
                    .oneOf([
                        "rp-logout", "idp-logout", "password-changed", "session-expired", "session-revoked",
                        "account-deleted", "email-identifier-changed", "mfa-phone-unenrolled", "account-deactivated",
                    ])),
            ], required: ["mode"]),
    ])

    static let credentialReferences: PayloadShape = .array(.object(["id": .string], required: ["id"]))

    /// An application's properties, as `PATCH /api/v2/clients/{id}` takes them (`client_id` is not
    /// among them: it cannot change).
    static let clientUpdate: [String: PayloadShape] = [
        "name": .string, "description": .string, "logo_uri": .string,
        "app_type": .oneOf(["native", "spa", "regular_web", "non_interactive"]), "oidc_conformant": .boolean,
        "is_first_party": .boolean, "callbacks": PayloadShape.strings, "allowed_logout_urls": PayloadShape.strings,
        "allowed_origins": PayloadShape.strings, "web_origins": PayloadShape.strings, "initiate_login_uri": .httpsURL,
        "grant_types": grantTypes, "sso": .boolean, "sso_disabled": .boolean, "cross_origin_authentication": .boolean,
        "token_endpoint_auth_method": .nullable(.oneOf(["none", "client_secret_post", "client_secret_basic"])),
        "jwt_configuration": .object([
            "alg": .oneOf(["HS256", "RS256", "PS256"]), "lifetime_in_seconds": .integer, "secret_encoded": .boolean,
            "scopes": .anything,
        ]),
        "refresh_token": .nullable(refreshToken), "oidc_logout": oidcLogout,
        "require_pushed_authorization_requests": .boolean,
        "client_authentication_methods": .nullable(
            .object(["private_key_jwt": .object(["credentials": credentialReferences], required: ["credentials"])])),
        "signed_request_object": .object(["required": .boolean, "credentials": credentialReferences]),
        "compliance_level": .nullable(
            .oneOf(["none", "fapi1_adv_pkj_par", "fapi1_adv_mtls_par", "fapi2_sp_pkj_mtls", "fapi2_sp_mtls_mtls"])),
        "session_transfer": .anything, "client_metadata": .object([:]),
    ]

    /// `POST /api/v2/clients`: the same, `name` required.
    static let clientCreate: PayloadShape = .object(clientUpdate, required: ["name"])

    /// `POST /api/v2/clients/{id}/credentials`: a public key.
    static let credentialCreate: PayloadShape = .object(
        [
            "credential_type": .oneOf(["public_key", "cert_subject_dn", "x509_cert"]), "name": .string, "pem": .string,
            "alg": .oneOf(["RS256", "RS384", "PS256"]), "parse_expiry_from_cert": .boolean, "expires_at": .string,
        ], required: ["credential_type"])

    private static let resourceServerFields: [String: PayloadShape] = [
        "name": .string, "scopes": .array(.object(["value": .string, "description": .string], required: ["value"])),
        "signing_alg": .oneOf(["HS256", "RS256", "PS256"]), "signing_secret": .string,
        "allow_offline_access": .boolean, "token_lifetime": .integer, "token_lifetime_for_web": .integer,
        "skip_consent_for_verifiable_first_party_clients": .boolean, "enforce_policies": .boolean,
        "token_dialect": .oneOf(["access_token", "access_token_authz", "rfc9068_profile", "rfc9068_profile_authz"]),
    ]

    /// `POST /api/v2/resource-servers`: an API, `identifier` required.
    static let resourceServerCreate: PayloadShape = .object(
        resourceServerFields.merging(["identifier": .string]) { $1 }, required: ["identifier"])
    /// `PATCH /api/v2/resource-servers/{id}`: `identifier` cannot change.
    static let resourceServerUpdate: PayloadShape = .object(resourceServerFields)

    /// `POST /api/v2/client-grants`.
    static let clientGrantCreate: PayloadShape = .object(
        [
            "client_id": .string, "audience": .string, "scope": PayloadShape.strings,
            "subject_type": .oneOf(["client", "user"]), "organization_usage": .oneOf(["deny", "allow", "require"]),
            "allow_any_organization": .boolean,
        ], required: ["client_id", "audience"])
    /// `PATCH /api/v2/client-grants/{id}`: `client_id`, `audience` and `subject_type` cannot change.
    static let clientGrantUpdate: PayloadShape = .object([
        "scope": PayloadShape.strings, "organization_usage": .nullable(.oneOf(["deny", "allow", "require"])),
        "allow_any_organization": .nullable(.boolean),
    ])

    /// `PATCH /api/v2/connections/{id}/clients`: at most 50 changes.
    static let connectionClients: PayloadShape = .array(
        .object(["client_id": .string, "status": .boolean], required: ["client_id", "status"]))

    private static let actionFields: [String: PayloadShape] = [
        "name": .string,
        "supported_triggers": .array(
            .object(["id": .string, "version": .string, "status": .string, "runtimes": .anything], required: ["id"])),
        "code": .string, "runtime": .oneOf(["node18", "node18-actions", "node22"]),
        "dependencies": .array(.object(["name": .string, "version": .string], required: ["name"])),
        "secrets": .array(.object(["name": .string, "value": .string], required: ["name"])),
    ]
    /// `POST /api/v2/actions/actions`.
    static let actionCreate: PayloadShape = .object(actionFields, required: ["name", "supported_triggers"])
    /// `PATCH /api/v2/actions/actions/{id}`.
    static let actionUpdate: PayloadShape = .object(actionFields)

    /// `PATCH /api/v2/actions/triggers/{trigger}/bindings`: the whole list.
    static let bindings: PayloadShape = .object(
        [
            "bindings": .array(
                .object(
                    [
                        "ref": .object(
                            ["type": .oneOf(["binding_id", "action_id", "action_name"]), "value": .string],
                            required: ["type", "value"]),
                        "display_name": .string, "secrets": .anything,
                    ], required: ["ref"]))
        ], required: ["bindings"])

    /// `PUT /api/v2/guardian/factors/{name}`.
    static let factor: PayloadShape = .object(["enabled": .boolean], required: ["enabled"])

    /// `PATCH /api/v2/tenants/settings` (the settings this tenant keeps).
    static let tenantSettings: PayloadShape = .object([
        "session_lifetime": .number, "idle_session_lifetime": .number, "friendly_name": .string,
        "oidc_logout": .object(["rp_logout_end_session_endpoint_discovery": .boolean]),
    ])
}
