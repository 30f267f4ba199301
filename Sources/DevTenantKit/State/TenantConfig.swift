import Foundation
import Web

/// The dev tenant's settings: its application(s) and seed users from a JSON file, its address
/// and behaviour from the environment.
public struct TenantConfig: Sendable {
    /// `tenant.allow_pushed_authorization_requests` (Auth0 Dashboard > Settings > Advanced, "Allow
    /// Pushed Authorization Requests (PAR)"; off by default, as on Auth0): `/oauth/par` answers,
    /// and the discovery document lists it.
    public let allowsPushedAuthorization: Bool
    /// `tenant.allow_dpop`: the token endpoint binds the tokens of a request with a DPoP proof
    /// (RFC 9449, as Auth0's sender-constrained tokens), and the discovery document says ES256.
    public let allowsDPoP: Bool
    /// `tenant.dpop_requires_nonce`: every proof must carry the tenant's nonce (`DPoP-Nonce`).
    public let dpopRequiresNonce: Bool
    /// `tenant.remove_alg_from_jwks`: the signing key is published without its `alg` (RS256 by
    /// default), so that it may sign PS256 too. Auth0's "Configure Auth0 to pass OpenID FAPI
    /// certification tests" asks a tenant to remove that property for keys used beyond RS256;
    /// a strict Relying Party refuses a PS256 token under a key published for RS256. (The name of
    /// the tenant setting is this tenant's: Auth0's pages name the change, not the flag.)
    public var removesAlgFromJWKS = false

    /// What the tenant's objects (`TenantDirectory`) start as, from the tenant file: its
    /// applications, APIs, Actions and MFA factors.
    public let seed: TenantSeed
    /// `actions.access_token_claims`: the namespace under which access tokens say how the person
    /// authenticated (`auth_time`, `amr`), standing for a post-login Action; nil: no such Action.
    public let accessTokenClaimsNamespace: String?
    /// Each person's roles by user id (`users[].roles`, names as `GET /api/v2/users/{id}/roles` lists them).
    let roles: [String: [String]]
    /// Each person's permissions (`users[].permissions`, as `GET /api/v2/users/{id}/permissions`
    /// lists them: `resource_server_identifier` and `permission_name`), by user id.
    let permissions: [String: [(api: String, name: String)]]

    /// `DEV_TENANT_ISSUER`: the tenant's own URL with `/` (default `http://127.0.0.1:8081/`).
    public let issuer: String
    /// The people the tenant starts with when it has no saved state.
    public let seedUsers: [JSONValue]
    /// `DEV_TENANT_STATE_FILE`: where users and refresh tokens are saved.
    public let stateFile: String
    /// `DEV_TENANT_KEY_FILE`: the RS256 signing key (PEM), made on first start.
    public let keyFile: String
    /// `DEV_TENANT_TEMPLATES_DIR`: the login page templates.
    public let templatesDirectory: String
    /// Lifetimes in seconds: `DEV_TENANT_ACCESS_TOKEN_SECONDS` (86400), `DEV_TENANT_ID_TOKEN_SECONDS` (36000),
    /// `DEV_TENANT_CODE_SECONDS` (60), `DEV_TENANT_REFRESH_TOKEN_SECONDS` (2592000).
    public let accessTokenLifetime: Int64
    /// Seconds an ID token lasts.
    public let idTokenLifetime: Int64
    /// Seconds an authorization code lasts.
    public let codeLifetime: Int64
    /// Seconds a refresh token family lasts.
    public let refreshTokenLifetime: Int64
    /// `DEV_TENANT_SESSION_TRANSFER_SECONDS` (60): seconds a session transfer token lasts.
    public let sessionTransferLifetime: Int64
    /// `DEV_TENANT_USER_RATE_PER_MINUTE`: Management API calls per user per minute (Auth0's free tier: 10).
    public let userRatePerMinute: Int
    /// `DEV_TENANT_MANAGEMENT_RATE_PER_SECOND` (2, Auth0's free tenants) and
    /// `DEV_TENANT_MANAGEMENT_BURST` (10): machine-to-machine Management API calls, tenant-wide.
    public let managementRatePerSecond: Int
    /// The calls a quiet tenant takes at once.
    public let managementBurst: Int
    /// `DEV_TENANT_ACTION_BUILD_MS` (1000): how long a new or changed Action builds before it can be deployed.
    public let actionBuildMilliseconds: Int
    /// Fault injection for tests on the Management API: `DEV_TENANT_LATENCY_MS`,
    /// `DEV_TENANT_FAIL_PERCENT` (share of 500s), `DEV_TENANT_FORCE_429` (`1`: every call is 429);
    /// on the token endpoint: `DEV_TENANT_TOKEN_FAIL_STATUS` (every call answers this 429 or 5xx).
    public let faults: Faults

    /// Faults injected for tests.
    public struct Faults: Sendable {
        /// Added to every Management API answer, in milliseconds.
        public let latencyMilliseconds: Int
        /// The share of Management API calls answered 500, in percent.
        public let failPercent: Int
        /// Every Management API call is answered 429.
        public let force429: Bool
        /// When set, `/oauth/token` answers every call with this status (429 or 5xx).
        public let tokenFailStatus: Int?
    }

    /// Every setting read, in order, for `dev-tenant settings`.
    public let reads: [SettingRead]

    /// The Management API's audience.
    public var managementAudience: String { issuer + "api/v2/" }
    /// The tenant's cookies are `Secure` when it is served over https.
    var secureCookies: Bool { issuer.hasPrefix("https://") }
    /// The audience a native app asks for to exchange its refresh token for a session transfer
    /// token: `urn:` + the tenant's domain + `:session_transfer` (Auth0.swift's `ssoExchange`).
    public let sessionTransferAudience: String
    /// The audience of tokens for `/userinfo`.
    public var userinfoAudience: String { issuer + "userinfo" }

    /// Reads the JSON file named by `DEV_TENANT_CONFIG` and the environment.
    public init(environment: [String: String]) throws {
        var reader = SettingsReader(environment: environment)
        let issuerText = reader.value(.devTenantIssuer)
        issuer = issuerText.hasSuffix("/") ? issuerText : issuerText + "/"
        sessionTransferAudience = "urn:" + (URLComponents(string: issuer)?.host ?? "") + ":session_transfer"
        let configPath = reader.value(.devTenantConfig)
        let appBase = reader.value(.devTenantAppBaseURL)
        stateFile = reader.value(.devTenantStateFile)
        keyFile = reader.value(.devTenantKeyFile)
        templatesDirectory = reader.value(.devTenantTemplates)
        (accessTokenLifetime, idTokenLifetime, codeLifetime, refreshTokenLifetime, sessionTransferLifetime) =
            Self.lifetimes(&reader)
        userRatePerMinute = reader.value(.userRatePerMinute)
        managementRatePerSecond = reader.value(.managementRatePerSecond)
        managementBurst = reader.value(.managementBurst)
        actionBuildMilliseconds = reader.value(.actionBuildMilliseconds)
        faults = Self.faults(&reader)
        reads = reader.reads
        var problems = reader.problems

        let file = TenantFile(path: configPath, appBase: appBase, issuer: issuer, problems: &problems)
        guard problems.isEmpty else { throw TenantConfigProblems(lines: problems, reads: reads) }
        seedUsers = file.users
        seed = file.seed
        (permissions, roles) = Self.grants(of: file.users)
        accessTokenClaimsNamespace = file.accessClaimsNamespace
        allowsPushedAuthorization = file.allowsPush
        (allowsDPoP, dpopRequiresNonce) = file.dpop
        removesAlgFromJWKS = file.removesAlg
        if !allowsPushedAuthorization, let requiring = file.clients.first(where: \.requiresPushedAuthorization) {
            throw TenantConfigProblems(
                lines: [
                    "DEV_TENANT_CONFIG: \(requiring.clientID): require_pushed_authorization_requests needs "
                        + "tenant.allow_pushed_authorization_requests"
                ], reads: reads)
        }
    }

    /// The permissions `userID` holds for the API `audience`.
    func permissions(of userID: String, for audience: String) -> [String] {
        (permissions[userID] ?? []).filter { $0.api == audience }.map(\.name)
    }
}

extension TenantConfig {
    /// Each person's permissions and roles, by user id, as the tenant file lists them.
    static func grants(of users: [JSONValue]) -> (
        permissions: [String: [(api: String, name: String)]], roles: [String: [String]]
    ) {
        var permissions: [String: [(api: String, name: String)]] = [:]
        var roles: [String: [String]] = [:]
        for user in users {
            guard let id = user["user_id"]?.string else { continue }
            permissions[id] = (user["permissions"]?.array ?? []).compactMap { entry in
                guard let api = entry["resource_server_identifier"]?.string,
                    let name = entry["permission_name"]?.string
                else { return nil }
                return (api, name)
            }
            roles[id] = user["roles"]?.array?.compactMap(\.string) ?? []
        }
        return (permissions, roles)
    }

    /// What the tenant file (`DEV_TENANT_CONFIG`) says, `${APP_BASE_URL}` replaced.
    struct TenantFile {
        var clients: [Client] = []
        var users: [JSONValue] = []
        var seed = TenantSeed()
        var accessClaimsNamespace: String?
        var allowsPush = false
        var dpop = (allowed: false, nonce: false)
        var removesAlg = false

        /// The file at `path`, each problem one line naming `DEV_TENANT_CONFIG`.
        init(path: String, appBase: String, issuer: String, problems: inout [String]) {
            guard let data = FileManager.default.contents(atPath: path) else {
                problems.append("DEV_TENANT_CONFIG: cannot read \(path)")
                return
            }
            let text = String(decoding: data, as: UTF8.self).replacingOccurrences(of: "${APP_BASE_URL}", with: appBase)
            guard let document = JSONValue.parse(Array(text.utf8)) else {
                problems.append("DEV_TENANT_CONFIG: \(path) is not valid JSON")
                return
            }
            var found: [String] = []
            seed = TenantSeed(document: document, text: text, issuer: issuer, problems: &found)
            for entry in seed.clients {
                if let client = Client(document: entry, problems: &found) { clients.append(client) }
            }
            problems += found.map { "DEV_TENANT_CONFIG: " + $0 }
            if clients.isEmpty && problems.isEmpty { problems.append("DEV_TENANT_CONFIG: no clients in \(path)") }
            users = document["users"]?.array ?? []
            accessClaimsNamespace = document["actions"]?["access_token_claims"]?.string
            let tenant = document["tenant"]
            allowsPush = tenant?["allow_pushed_authorization_requests"]?.bool ?? false
            removesAlg = tenant?["remove_alg_from_jwks"]?.bool ?? false
            dpop = (tenant?["allow_dpop"]?.bool ?? false, tenant?["dpop_requires_nonce"]?.bool ?? false)
        }
    }
}
