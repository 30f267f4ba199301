import Foundation
import OpenSSLCrypto
import TestSupport
import Testing
import Web

@testable import DevTenantKit

/// Issue 60: the dev tenant refuses what Auth0's Management API refuses, on every call
/// `metadata-demo auth0` makes: a missing scope (403), an unknown or immutable property and a
/// wrong type or value (400, Auth0's "Payload validation error" wording), a missing object
/// (404), a natural key already taken (409), a deploy before the build (400), the rate limit
/// (429 with its three headers); and what it stores takes effect.
@Suite struct ManagementAPITests {
    static let admin = (id: "tenant-admin", secret: "tenant-admin-secret-0123456789")
    static let reader = (id: "tenant-reader", secret: "tenant-reader-secret-0123456789")
    static let allScopes = [
        "read:clients", "create:clients", "update:clients", "read:client_credentials", "create:client_credentials",
        "read:resource_servers", "create:resource_servers", "update:resource_servers", "read:client_grants",
        "create:client_grants", "update:client_grants", "read:connections", "update:connections", "read:actions",
        "create:actions", "update:actions", "read:guardian_factors", "update:guardian_factors", "read:tenant_settings",
        "update:tenant_settings",
    ]

    let clock = ManualClock()
    let tenant: DevTenant

    /// A bare tenant (a management application with every set-up scope, one that may only read
    /// clients), at `burst` calls with one more a second, Actions building for two seconds.
    init(burst: Int = 1000) throws {
        let folder = NSTemporaryDirectory() + "management-api-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let application = { (id: String, secret: String, scopes: [String]) -> JSONValue in
            .object([
                "name": .string(id), "client_id": .string(id), "client_secret": .string(secret),
                "grant_types": .array(["client_credentials"]),
                "management_api_scopes": .array(scopes.map(JSONValue.string)),
            ])
        }
        let file: JSONValue = .object([
            "clients": .array([
                application(Self.admin.id, Self.admin.secret, Self.allScopes),
                application(Self.reader.id, Self.reader.secret, ["read:clients"]),
            ]),
            "users": .array([]),
        ])
        try Data(file.serialized()).write(to: URL(fileURLWithPath: folder + "/tenant.json"))
        tenant = try DevTenant(
            config: TenantConfig(environment: [
                "DEV_TENANT_ISSUER": "http://127.0.0.1:8081/", "DEV_TENANT_CONFIG": folder + "/tenant.json",
                "DEV_TENANT_TEMPLATES_DIR": DevTenantTests.repoRoot + "/Templates/dev-tenant",
                "DEV_TENANT_STATE_FILE": folder + "/state.json", "DEV_TENANT_KEY_FILE": folder + "/key.pem",
                "DEV_TENANT_MANAGEMENT_BURST": String(burst), "DEV_TENANT_MANAGEMENT_RATE_PER_SECOND": "1",
                "DEV_TENANT_ACTION_BUILD_MS": "2000",
            ]), clock: clock.clock, log: Log(minimum: .error))
    }

    /// A Management API token of `client`.
    func token(_ client: (id: String, secret: String) = admin) throws -> String {
        let answer = tenant.respond(
            to: Request(
                method: "POST", path: "/oauth/token", headers: ["content-type": "application/x-www-form-urlencoded"],
                body: Array(
                    PercentEncoding.formEncode([
                        ("grant_type", "client_credentials"), ("client_id", client.id),
                        ("client_secret", client.secret),
                        ("audience", "http://127.0.0.1:8081/api/v2/"),
                    ]).utf8)))
        return try #require(JSONValue.parse(answer.body)?["access_token"]?.string)
    }

    /// A Management API call: its status, body and answer.
    @discardableResult
    func call(
        _ method: String, _ path: String, _ body: JSONValue? = nil, as client: (id: String, secret: String) = admin
    )
        throws -> (status: Int, body: JSONValue, response: Response)
    {
        var headers = ["authorization": "Bearer " + (try token(client))]
        if body != nil { headers["content-type"] = "application/json" }
        let (pathPart, query) =
            path.firstIndex(of: "?").map { (String(path[..<$0]), String(path[path.index(after: $0)...])) }
            ?? (path, "")
        let response = tenant.respond(
            to: Request(
                method: method, path: "/api/v2/" + pathPart, query: query, headers: HeaderFields(headers),
                body: body?.serialized() ?? []))
        return (response.status, JSONValue.parse(response.body) ?? .null, response)
    }

    /// A 400 whose message is Auth0's payload validation wording with `detail`.
    func expectInvalid(_ answer: (status: Int, body: JSONValue, response: Response), _ detail: String) {
        #expect(answer.status == 400, "\(answer.body)")
        #expect(answer.body["errorCode"] == "invalid_body")
        #expect(answer.body["message"]?.string == "Payload validation error: \(detail).", "\(answer.body)")
    }

    @Test func aCallWithoutItsScopeIsRefusedNamingTheScope() throws {
        let answer = try call("POST", "clients", .object(["name": "x"]), as: Self.reader)
        #expect(answer.status == 403)
        #expect(answer.body["errorCode"] == "insufficient_scope")
        #expect(answer.body["message"] == "Insufficient scope, expected any of: create:clients")
        #expect(try call("GET", "clients", as: Self.reader).status == 200)
    }

    @Test func unknownImmutableAndMistypedPropertiesAreRefusedAsAuth0Words() throws {
        expectInvalid(
            try call("POST", "clients", .object(["name": "x", "colour": "red"])),
            "'Additional properties not allowed: colour'")
        expectInvalid(
            try call("POST", "clients", .object(["app_type": "regular_web"])), "'Missing required property: name'")
        expectInvalid(
            try call("POST", "clients", .object(["name": "x", "callbacks": "https://a.example/cb"])),
            "'Expected type array but found type string' on property callbacks")
        expectInvalid(
            try call("POST", "clients", .object(["name": "x", "initiate_login_uri": "http://a.example/login"])),
            "'Object didn't pass validation for format absolute-https-uri-or-empty: http://a.example/login' on property initiate_login_uri"
        )
        expectInvalid(
            try call(
                "POST", "clients",
                .object([
                    "name": "x",
                    "refresh_token": .object(["rotation_type": "sometimes", "expiration_type": "expiring"]),
                ])),
            "'No enum match for: \"sometimes\"' on property refresh_token.rotation_type")
        let client = try call("POST", "clients", .object(["name": "x"]))
        #expect(client.status == 201 && client.body["client_secret"]?.string?.count == 64)
        let id = try #require(client.body["client_id"]?.string)
        expectInvalid(
            try call("PATCH", "clients/\(id)", .object(["client_id": "mine"])),
            "'Additional properties not allowed: client_id'")
        let api = try call(
            "POST", "resource-servers",
            .object(["identifier": "https://api.example/", "scopes": .array([.object(["value": "read:x"])])]))
        #expect(api.status == 201)
        expectInvalid(
            try call(
                "PATCH", "resource-servers/\(PercentEncoding.encode("https://api.example/"))",
                .object(["identifier": "https://other.example/"])),
            "'Additional properties not allowed: identifier'")
        let grant = try call(
            "POST", "client-grants",
            .object([
                "client_id": .string(id), "audience": "https://api.example/", "scope": .array(["read:x"]),
                "subject_type": "user",
            ]))
        #expect(grant.status == 201)
        let grantID = try #require(grant.body["id"]?.string)
        expectInvalid(
            try call("PATCH", "client-grants/\(grantID)", .object(["audience": "https://other.example/"])),
            "'Additional properties not allowed: audience'")
        expectInvalid(
            try call(
                "POST", "client-grants",
                .object(["client_id": .string(id), "audience": "https://api.example/", "scope": .array(["write:x"])])),
            "'The scope write:x is not defined by the resource server'")
        expectInvalid(
            try call(
                "PATCH", "clients/\(id)",
                .object([
                    "client_authentication_methods": .object([
                        "private_key_jwt": .object(["credentials": .array([.object(["id": "cred_none"])])])
                    ])
                ])),
            "'token_endpoint_auth_method and client_authentication_methods are mutually exclusive'")
    }

    @Test func aMissingObjectIs404AndATakenKeyIs409() throws {
        #expect(try call("GET", "clients/nobody").body["errorCode"] == "inexistent_client")
        #expect(try call("GET", "resource-servers/\(PercentEncoding.encode("https://none.example/"))").status == 404)
        #expect(try call("PATCH", "client-grants/cgr_none", .object(["scope": .array([])])).status == 404)
        #expect(try call("POST", "actions/actions/none/deploy").status == 404)
        #expect(try call("GET", "actions/triggers/after-lunch/bindings").status == 404)
        #expect(try call("PUT", "guardian/factors/carrier-pigeon", .object(["enabled": .bool(true)])).status == 404)
        let api: JSONValue = .object(["identifier": "https://api.example/"])
        #expect(try call("POST", "resource-servers", api).status == 201)
        let again = try call("POST", "resource-servers", api)
        #expect(again.status == 409 && again.body["error"] == "Conflict")
        let grant: JSONValue = .object(["client_id": .string(Self.admin.id), "audience": "https://api.example/"])
        #expect(try call("POST", "client-grants", grant).status == 201)
        #expect(try call("POST", "client-grants", grant).status == 409)
        let action: JSONValue = .object(["name": "a", "supported_triggers": .array([.object(["id": "post-login"])])])
        #expect(try call("POST", "actions/actions", action).status == 201)
        #expect(try call("POST", "actions/actions", action).status == 409)
    }

    /// The other calls' refusals: a page size past 100, a credential that is no RSA key or is
    /// there already, a connection or application that is not there, a tenant setting not kept.
    @Test func theOtherCallsRefuseAsAuth0Does() throws {
        let page = try call("GET", "clients?per_page=101")
        #expect(page.status == 400 && page.body["errorCode"] == "invalid_query_string")
        let client = try #require(try call("POST", "clients", .object(["name": "x"])).body["client_id"]?.string)
        expectInvalid(
            try call(
                "POST", "clients/\(client)/credentials", .object(["credential_type": "public_key", "pem": "nonsense"])),
            "'pem must be an RSA public key of 2048 bits or more' on property pem")
        let pem = try RSAPrivateKey().publicPEM()
        let credential: JSONValue = .object(["credential_type": "public_key", "pem": .string(pem), "alg": "RS256"])
        let added = try call("POST", "clients/\(client)/credentials", credential)
        #expect(added.status == 201 && added.body["kid"]?.string?.count == 43 && added.body["pem"] == nil)
        #expect(try call("POST", "clients/\(client)/credentials", credential).status == 409)
        #expect(try call("GET", "clients/\(client)/credentials").body.array?.count == 1)
        #expect(try call("GET", "connections/con_none/clients").body["errorCode"] == "inexistent_connection")
        let connection = try #require(
            try call("GET", "connections?name=Username-Password-Authentication").body.array?.first?["id"]?.string)
        let unknown: JSONValue = .array([.object(["client_id": "nobody", "status": .bool(true)])])
        #expect(try call("PATCH", "connections/\(connection)/clients", unknown).status == 404)
        let enable: JSONValue = .array([.object(["client_id": .string(client), "status": .bool(true)])])
        #expect(try call("PATCH", "connections/\(connection)/clients", enable).status == 204)
        expectInvalid(
            try call("PATCH", "tenants/settings", .object(["picture_url": "https://a.example/p.png"])),
            "'Additional properties not allowed: picture_url'")
        #expect(
            try call("PATCH", "tenants/settings", .object(["session_lifetime": .number(24)])).body["session_lifetime"]
                == .number(24))
    }

    /// An Action deploys only once built, binds only once deployed, and the bound roles Action's
    /// claim takes effect; the binding list is replaced whole, as Auth0's is.
    @Test func anActionDeploysOnceBuiltAndItsRolesReachTokensOnlyWhileBound() throws {
        let code =
            "exports.onExecutePostLogin = async (event, api) => {\n"
            + "  api.idToken.setCustomClaim(\"https://example.com/roles\", event.authorization.roles);\n};\n"
        let created = try call(
            "POST", "actions/actions",
            .object([
                "name": "roles", "code": .string(code),
                "supported_triggers": .array([.object(["id": "post-login", "version": "v3"])]),
            ]))
        let id = try #require(created.body["id"]?.string)
        #expect(created.body["status"] == "pending")
        let early = try call("POST", "actions/actions/\(id)/deploy")
        #expect(
            early.status == 400
                && early.body["message"] == "A draft must be in the 'built' state before it can be deployed.")
        let binding: JSONValue = .object([
            "bindings": .array([.object(["ref": .object(["type": "action_name", "value": "roles"])])])
        ])
        #expect(try call("PATCH", "actions/triggers/post-login/bindings", binding).status == 400)
        clock.advance(2.5)
        #expect(try call("GET", "actions/actions/\(id)").body["status"] == "built")
        #expect(try call("POST", "actions/actions/\(id)/deploy").status == 200)
        #expect(tenant.directory.rolesClaim == nil)
        #expect(try call("PATCH", "actions/triggers/post-login/bindings", binding).status == 200)
        #expect(tenant.directory.rolesClaim == "https://example.com/roles")
        #expect(
            try call("PATCH", "actions/triggers/post-login/bindings", .object(["bindings": .array([])])).status == 200)
        #expect(tenant.directory.rolesClaim == nil)
    }

    @Test func theRateLimitIs429WithItsThreeHeadersAndLiftsAsItRefills() throws {
        let limited = try ManagementAPITests(burst: 3)
        for _ in 0..<3 { #expect(try limited.call("GET", "clients").status == 200) }
        let refused = try limited.call("GET", "clients")
        #expect(refused.status == 429 && refused.body["errorCode"] == "too_many_requests")
        #expect(refused.response.header("x-ratelimit-limit") == "3")
        #expect(refused.response.header("x-ratelimit-remaining") == "0")
        let reset = try #require(refused.response.header("x-ratelimit-reset").flatMap(Double.init))
        #expect(reset > limited.clock.clock.now())
        limited.clock.advance(reset - limited.clock.clock.now())
        #expect(try limited.call("GET", "clients").status == 200)
    }

    /// An application's `token_endpoint_auth_method` is the one way its secret is taken, as at
    /// Auth0: one made for `client_secret_post` is refused its secret in a Basic header.
    @Test func theSecretIsTakenOnlyAsTheApplicationsMethodSays() throws {
        let made = try call(
            "POST", "clients", .object(["name": "web", "token_endpoint_auth_method": "client_secret_post"]))
        let id = try #require(made.body["client_id"]?.string)
        let secret = try #require(made.body["client_secret"]?.string)
        func refresh(basic: Bool) -> Int {
            var form = [("grant_type", "refresh_token"), ("refresh_token", "never-issued")]
            var headers: HeaderFields = ["content-type": "application/x-www-form-urlencoded"]
            if basic {
                headers["authorization"] = "Basic " + Base64URL.encodeStandard(Array("\(id):\(secret)".utf8))
            } else {
                form += [("client_id", id), ("client_secret", secret)]
            }
            return tenant.respond(
                to: Request(
                    method: "POST", path: "/oauth/token", headers: headers,
                    body: Array(PercentEncoding.formEncode(form).utf8))
            ).status
        }
        #expect(refresh(basic: false) == 403)  // authenticated; the made-up token refused
        #expect(refresh(basic: true) == 401)
    }

    /// What one anonymous request can make the set-up routes do: no token, or a forged one, is
    /// refused (401) before its body is read and before the rate bucket is touched; nothing is
    /// written to the directory or the state file. The body's size is bounded by nginx's limit in
    /// front (`client_max_body_size`), the token's check by its signature.
    @Test func anAnonymousCallWritesNothingAndSpendsNoneOfTheRate() throws {
        let limited = try ManagementAPITests(burst: 5)
        let stateFile = limited.tenant.config.stateFile
        let before = try FileManager.default.attributesOfItem(atPath: stateFile)[.modificationDate] as? Date
        let clients = limited.tenant.directory.read(\.clients).count
        let body = JSONValue.object(["name": .string(String(repeating: "x", count: 100_000))]).serialized()
        for authorization in [nil, "Bearer not-a-token", "Bearer eyJhbGciOiJSUzI1NiJ9.e30.AAAA"] {
            for _ in 0..<20 {
                var headers: HeaderFields = ["content-type": "application/json"]
                if let authorization { headers["authorization"] = authorization }
                let answer = limited.tenant.respond(
                    to: Request(method: "POST", path: "/api/v2/clients", headers: headers, body: body))
                #expect(answer.status == 401)
            }
        }
        #expect(limited.tenant.directory.read(\.clients).count == clients)
        #expect(try FileManager.default.attributesOfItem(atPath: stateFile)[.modificationDate] as? Date == before)
        let first = try limited.call("GET", "clients")
        #expect(first.status == 200 && first.response.header("x-ratelimit-remaining") == "4")
    }

    /// An application's grant types are its own: one for machine-to-machine calls alone cannot
    /// renew a refresh token (Auth0's `unauthorized_client`).
    @Test func aGrantTypeTheApplicationLacksIsRefused() throws {
        let answer = tenant.respond(
            to: Request(
                method: "POST", path: "/oauth/token", headers: ["content-type": "application/x-www-form-urlencoded"],
                body: Array(
                    PercentEncoding.formEncode([
                        ("grant_type", "refresh_token"), ("client_id", Self.admin.id),
                        ("client_secret", Self.admin.secret),
                        ("refresh_token", "anything"),
                    ]).utf8)))
        #expect(answer.status == 403)
        #expect(JSONValue.parse(answer.body)?["error"] == "unauthorized_client")
    }
}

/// Issue 61, item 3: the dev tenant's settings go through the product's reader: each problem
/// names its setting in the same words, and `dev-tenant settings` lists every one it reads.
@Suite struct TenantSettingsTests {
    @Test func aWrongSettingIsNamedAndEverySettingIsListed() throws {
        let environment = [
            "DEV_TENANT_CONFIG": DevTenantTests.repoRoot + "/deploy/dev-tenant/tenant.json",
            "DEV_TENANT_CODE_SECONDS": "soon", "DEV_TENANT_TOKEN_FAIL_STATUS": "450",
        ]
        let (reads, problems) = TenantConfig.readSettings(environment: environment)
        #expect(
            problems == [
                "DEV_TENANT_CODE_SECONDS: \"soon\" is not a whole number of seconds from 1 to 31536000",
                "DEV_TENANT_TOKEN_FAIL_STATUS: 450 is not 429 or a 5xx status",
            ])
        let listed = Set(reads.map(\.setting.name))
        #expect(listed.contains("DEV_TENANT_MANAGEMENT_BURST") && listed.contains("DEV_TENANT_ISSUER"))
        #expect(reads.first { $0.setting.name == "DEV_TENANT_CODE_SECONDS" }?.source == .environment)
        let config = ["DEV_TENANT_CONFIG": DevTenantTests.repoRoot + "/deploy/dev-tenant/tenant.json"]
        #expect(TenantConfig.readSettings(environment: config).problems.isEmpty)
    }
}
