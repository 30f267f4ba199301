import Foundation
import Testing
import Web

/// A bare dev tenant (a management application and `make run`'s people) behind nginx, with the
/// site's settings file as the guide's layout has it before the application exists, and the
/// steps `metadata-demo auth0` tests take on it. No worker runs until a test starts one.
final class TenantSetupSite {
    let stack: Stack
    let settingsFile: String

    /// The management application's credentials in the bare tenant file.
    static let admin = (id: "tenant-admin", secret: "tenant-admin-secret-not-for-production-0123456789")

    /// A bare tenant granting the management application `scopes`, with the tenant's own settings
    /// `tenant` (PAR allowed, say); the site's settings name `miniAppsFile` and add `settings`.
    init(
        miniAppsFile: String, scopes: [String] = TestTenant.setupScopes, settings: [String: String] = [:],
        tenant: JSONValue? = nil
    ) throws {
        let directory = NSTemporaryDirectory() + "tenant-setup-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let bare = try TestTenant.writeBare(into: directory, admin: Self.admin, scopes: scopes, tenant: tenant)
        stack = try Stack(
            workers: 0, tenantEnvironment: ["DEV_TENANT_CONFIG": bare, "DEV_TENANT_ACTION_BUILD_MS": "300"],
            miniAppsFile: miniAppsFile)
        settingsFile = stack.runDir + "/metadata-demo.env"
        var lines: [String] = []
        for (name, value) in stack.devEnvironment.sorted(by: { $0.key < $1.key })
        where !name.hasPrefix("DEV_TENANT_") && name != "AUTH0_CLIENT_ID" && name != "AUTH0_CLIENT_SECRET" {
            lines.append("\(name)=\(value)")
        }
        lines += [
            "MINI_APPS_FILE=\(miniAppsFile)", "AUTH0_MANAGEMENT_CLIENT_ID=\(Self.admin.id)",
            "AUTH0_MANAGEMENT_CLIENT_SECRET=\(Self.admin.secret)",
        ]
        lines += settings.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        try (lines.joined(separator: "\n") + "\n").write(toFile: settingsFile, atomically: true, encoding: .utf8)
    }

    /// `metadata-demo --env-file FILE auth0 VERB` in a clean environment: its status and output.
    func auth0(_ verb: String) throws -> (status: Int32, output: String) {
        try Stack.run(
            Stack.binDir + "/metadata-demo", ["--env-file", settingsFile, "auth0", verb],
            environment: ["PATH": "/usr/bin:/bin"], clean: true)
    }

    /// The Management API calls that write (POST, PATCH, PUT) the tenant has answered so far.
    func tenantWrites() throws -> Int {
        try stack.log("dev-tenant").split(separator: "\n").filter { line in
            line.contains("tenant request") && line.contains("/api/v2/")
                && ["POST", "PATCH", "PUT"].contains {
                    line.contains("method=\($0)") || line.contains("\"method\":\"\($0)\"")
                }
        }.count
    }

    /// The settings the site now has.
    func siteSettings() throws -> [String: String] {
        var settings: [String: String] = [:]
        for line in try String(contentsOfFile: settingsFile, encoding: .utf8).split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            settings[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        return settings
    }

    /// A Management API token of the bare tenant's management application.
    func adminToken(scope: String = TestTenant.setupScopes.joined(separator: " ")) throws -> String {
        let answer = try TestClient().post(
            stack.tenantURL + "/oauth/token",
            form: [
                ("grant_type", "client_credentials"), ("client_id", Self.admin.id),
                ("client_secret", Self.admin.secret),
                ("audience", stack.tenantURL + "/api/v2/"), ("scope", scope),
            ])
        guard answer.status == 200, let token = JSONValue.parse(Array(answer.body.utf8))?["access_token"]?.string
        else { throw StackError("no management token: \(answer.status) \(answer.body)") }
        return token
    }

    /// A Management API call as the management application makes it by hand: status and body.
    /// A 429 is waited out until the `x-ratelimit-reset` it names, as Auth0 asks of every caller:
    /// the tenant's bucket (2 a second, 10 at once) is often left empty by `auth0 apply` just before.
    @discardableResult
    func management(_ method: String, _ path: String, _ body: JSONValue? = nil) throws -> (status: Int, body: JSONValue)
    {
        var headers = [("Authorization", "Bearer " + (try adminToken()))]
        if body != nil { headers.append(("Content-Type", "application/json")) }
        for _ in 0..<10 {
            let answer = try TestClient().send(
                method, stack.tenantURL + "/api/v2/" + path, headers: headers, body: body?.serialized() ?? [])
            guard answer.status == 429, let reset = answer.header("x-ratelimit-reset").flatMap(Double.init) else {
                return (answer.status, JSONValue.parse(Array(answer.body.utf8)) ?? .null)
            }
            let wait = min(5, max(0.05, reset - Date().timeIntervalSince1970))
            Thread.sleep(forTimeInterval: wait)
        }
        throw StackError("\(method) \(path): still 429 after ten waits for the rate limit's reset")
    }
}
