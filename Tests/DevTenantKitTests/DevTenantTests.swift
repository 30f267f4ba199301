import Auth0Web
import DevTenantKit
import Foundation
import Testing
import Web

/// The dev tenant's handlers, answered in-process (no sockets): what it publishes and how it
/// refuses, as `shared/auth0-api.md` says Auth0 does.
@Suite struct DevTenantTests {
    static let repoRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    /// One folder for the suite, so the signing key is made once.
    static let stateDirectory = NSTemporaryDirectory() + "dev-tenant-unit-\(UUID().uuidString.prefix(8))"

    private func tenant(_ extra: [String: String] = [:]) throws -> DevTenant { try Self.make(extra) }

    /// A dev tenant answered in-process: `make run`'s file and address unless `extra` says others
    /// (`DEV_TENANT_CONFIG`), a state file of its own, the suite's signing key.
    static func make(_ extra: [String: String] = [:]) throws -> DevTenant {
        try FileManager.default.createDirectory(atPath: Self.stateDirectory, withIntermediateDirectories: true)
        var environment = [
            "DEV_TENANT_ISSUER": "http://127.0.0.1:8081/",
            "DEV_TENANT_CONFIG": Self.repoRoot + "/deploy/dev-tenant/tenant.json",
            "DEV_TENANT_TEMPLATES_DIR": Self.repoRoot + "/Templates/dev-tenant",
            "DEV_TENANT_STATE_FILE": Self.stateDirectory + "/state-\(UUID().uuidString.prefix(8)).json",
            "DEV_TENANT_KEY_FILE": Self.stateDirectory + "/key.pem",
        ]
        environment.merge(extra) { $1 }
        return try DevTenant(config: TenantConfig(environment: environment), log: Log(minimum: .error))
    }

    private func post(_ tenant: DevTenant, _ path: String, _ form: [(String, String)]) -> (Int, JSONValue?) {
        let response = tenant.respond(
            to: Request(
                method: "POST", path: path, headers: ["content-type": "application/x-www-form-urlencoded"],
                body: Array(PercentEncoding.formEncode(form).utf8)))
        return (response.status, JSONValue.parse(response.body))
    }

    /// The product reads exactly Auth0's documented paths from the dev tenant's discovery.
    @Test func discoveryPublishesAuth0sDocumentedEndpoints() throws {
        let response = try tenant().respond(to: Request(method: "GET", path: "/.well-known/openid-configuration"))
        #expect(response.status == 200)
        let document = try #require(JSONValue.parse(response.body))
        let endpoints = try TenantEndpoints(discovery: document, expectedIssuer: "http://127.0.0.1:8081/")
        #expect(endpoints == TenantEndpoints.documented(issuer: "http://127.0.0.1:8081/"))
    }

    /// Issue 24 noted it: the 413 page spoke the language of the request the thread answered
    /// before (the language is kept per thread), not its own.
    @Test func aRefusedRequestIsAnsweredInItsOwnLanguage() throws {
        let tenant = try tenant()
        let chinese = tenant.respond(
            to: Request(method: "GET", path: "/nowhere", headers: ["accept-language": "zh-CN,zh;q=0.9"]))
        #expect(String(decoding: chinese.body, as: UTF8.self).contains("lang=\"zh"))
        let refused = tenant.respond(
            to: Request(method: "POST", path: "/oauth/token", headers: ["accept-language": "en-US"]),
            rejectedWith: .contentTooLarge)
        #expect(refused.status == 413)
        #expect(String(decoding: refused.body, as: UTF8.self).contains("lang=\"en\""))
    }

    @Test func theTokenEndpointRefusesAnUnknownClientAndGrant() throws {
        let tenant = try tenant()
        let (unknown, body) = post(
            tenant, "/oauth/token", [("grant_type", "refresh_token"), ("client_id", "nobody"), ("client_secret", "x")])
        #expect(unknown == 401)
        #expect(body?["error"]?.string == "access_denied")
        let (badGrant, grantBody) = post(
            tenant, "/oauth/token",
            [("grant_type", "password"), ("client_id", "metadata-demo-dev"), ("client_secret", devClientSecret())])
        #expect(badGrant == 400)
        #expect(grantBody?["error"]?.string == "unsupported_grant_type")
        let (refused, refusedBody) = post(
            tenant, "/oauth/token",
            [
                ("grant_type", "refresh_token"), ("client_id", "metadata-demo-dev"),
                ("client_secret", devClientSecret()), ("refresh_token", "never-issued"),
            ])
        #expect(refused == 403)
        #expect(refusedBody?["error"]?.string == "invalid_grant")
    }

    @Test(arguments: ["429", "503"])
    func aFailingTokenEndpointAnswersAnOAuthError(status: String) throws {
        let (code, body) = post(try tenant(["DEV_TENANT_TOKEN_FAIL_STATUS": status]), "/oauth/token", [])
        #expect(code == Int(status))
        #expect(body?["error"]?.string == (status == "429" ? "too_many_requests" : "server_error"))
    }

    @Test func theManagementAPIAndUserinfoNeedABearerToken() throws {
        let tenant = try tenant()
        let user = tenant.respond(to: Request(method: "GET", path: "/api/v2/users/auth0%7C1"))
        #expect(user.status == 401)
        #expect(JSONValue.parse(user.body)?["statusCode"]?.number == 401)
        #expect(tenant.respond(to: Request(method: "GET", path: "/userinfo")).status == 401)
    }

    private func devClientSecret() -> String {
        let data = FileManager.default.contents(atPath: Self.repoRoot + "/deploy/dev-tenant/tenant.json") ?? Data()
        let config = JSONValue.parse(Array(data))
        return config?["clients"]?.array?.first?["client_secret"]?.string ?? ""
    }
}
