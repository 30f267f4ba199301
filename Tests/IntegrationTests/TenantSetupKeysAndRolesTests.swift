import Foundation
import TestSupport
import Testing
import Web

/// Issue 60: what `metadata-demo auth0 apply` sets beyond the application's fields: its Private
/// Key JWT key (the public half of `CLIENT_ASSERTION_KEY`), the roles Action bound beside an
/// Action already on the trigger (never replacing it), and a management application that lacks a
/// scope stopping it before its first write.
@Suite(.serialized) struct TenantSetupKeysAndRolesTests {
    /// The example apps and an editors' desk open to a role, reading roles from the ID token.
    static func miniAppsWithRoles(in folder: String) throws -> String {
        let path = folder + "/mini-apps-roles.json"
        let example = try Data(contentsOf: URL(fileURLWithPath: Stack.exampleMiniApps))
        guard case .object(var top)? = JSONValue.parse(Array(example)), case .array(var apps)? = top["apps"] else {
            throw StackError("the example mini-apps file is not what the tests expect")
        }
        apps.append(
            .object([
                "name": "desk", "title": .object(["en": "Editors' desk", "zh": "编辑台"]), "path": "/desk/",
                "allow": .object(["roles": .array(["editor"])]),
            ]))
        top["apps"] = .array(apps)
        top["roles_claim"] = "https://metadata-demo.example/roles"
        try Data(JSONValue.object(top).serialized()).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func folder() throws -> String {
        let folder = NSTemporaryDirectory() + "tenant-setup-keys-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func theKeyAndTheRolesActionAreSetUpBesideWhatIsBound() throws {
        let folder = try Self.folder()
        let key = folder + "/client-assertion-key"
        let pem = try Stack.check(Stack.binDir + "/metadata-demo", ["new-client-key"])
        try pem.write(toFile: key, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: key)
        let site = try TenantSetupSite(
            miniAppsFile: try Self.miniAppsWithRoles(in: folder), settings: ["CLIENT_ASSERTION_KEY_FILE": key])
        defer { site.stack.stop() }

        // Someone else's Action, already on the post-login trigger.
        let audit = try site.management(
            "POST", "actions/actions",
            .object([
                "name": "audit", "code": "exports.onExecutePostLogin = async () => {};",
                "supported_triggers": .array([.object(["id": "post-login", "version": "v3"])]),
            ]))
        let auditID = try #require(audit.body["id"]?.string)
        #expect(
            eventually(within: 10) {
                (try? site.management("GET", "actions/actions/" + auditID))?.body["status"] == "built"
            })
        #expect(try site.management("POST", "actions/actions/\(auditID)/deploy").status == 200)
        let bound: JSONValue = .object([
            "bindings": .array([.object(["ref": .object(["type": "action_name", "value": "audit"])])])
        ])
        #expect(try site.management("PATCH", "actions/triggers/post-login/bindings", bound).status == 200)

        let applied = try site.auth0("apply")
        #expect(applied.status == 0, "\(applied.output)")
        #expect(applied.output.contains("added the Private Key JWT key"), "\(applied.output)")
        #expect(applied.output.contains("created Action metadata-demo roles in ID tokens"))
        #expect(
            applied.output.contains(
                "bound Action metadata-demo roles in ID tokens to the post-login trigger (after 1 already bound)"))
        let bindings = try site.management("GET", "actions/triggers/post-login/bindings").body["bindings"]?.array ?? []
        #expect(bindings.compactMap { $0["action"]?["name"]?.string } == ["audit", "metadata-demo roles in ID tokens"])
        let again = try site.auth0("apply")
        #expect(again.output.contains("nothing to change"), "\(again.output)")

        let clientID = try #require(try site.siteSettings()["AUTH0_CLIENT_ID"])
        let application = try site.management("GET", "clients/" + clientID).body
        #expect(application["token_endpoint_auth_method"] == nil)
        #expect(application["client_authentication_methods"]?["private_key_jwt"]?["credentials"]?.array?.count == 1)

        // The worker proves itself with the key alone, and roles reach the ID token.
        try site.stack.startWorker(
            1,
            extra: [
                "AUTH0_CLIENT_ID": clientID, "CLIENT_ASSERTION_KEY_FILE": key, "AUTH0_CLIENT_SECRET": "not-this-one",
            ])
        let skippy = TestClient()
        try skippy.logIn(site.stack, as: DemoUser.skippy)  // an editor
        #expect(try skippy.get(site.stack.baseURL + "/desk/").status == 200)
        let random = TestClient()
        try random.logIn(site.stack, as: DemoUser.random)  // no role
        #expect(try random.get(site.stack.baseURL + "/desk/").status == 403)
    }

    /// SECURITY_PROFILE=fapi1-advanced: the application made at Auth0's FAPI 1 level
    /// (`fapi1_adv_pkj_par`: PAR required, its key for Private Key JWT and request objects, PS256
    /// ID tokens), in a tenant that allows PAR; the person logs in under it.
    @Test func theFAPILevelIsSetUpAndLogsIn() throws {
        let folder = try Self.folder()
        let keys = try PrivateKeyJWTTests.newKeyPair(folder)
        let key = folder + "/client-assertion-key"
        try keys.privatePEM.write(toFile: key, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: key)
        let fapi = [
            "CLIENT_ASSERTION_KEY_FILE": key, "CLIENT_ASSERTION_ALG": "PS256", "ID_TOKEN_SIGNING_ALG": "PS256",
            "SECURITY_PROFILE": "fapi1-advanced",
        ]
        let site = try TenantSetupSite(
            miniAppsFile: Stack.exampleMiniApps, settings: fapi,
            tenant: .object(["allow_pushed_authorization_requests": .bool(true), "remove_alg_from_jwks": .bool(true)]))
        defer { site.stack.stop() }
        let applied = try site.auth0("apply")
        #expect(applied.status == 0, "\(applied.output)")
        let clientID = try #require(try site.siteSettings()["AUTH0_CLIENT_ID"])
        let application = try site.management("GET", "clients/" + clientID).body
        #expect(application["compliance_level"] == "fapi1_adv_pkj_par")
        #expect(application["require_pushed_authorization_requests"] == .bool(true))
        #expect(application["signed_request_object"]?["required"] == .bool(true))
        #expect(application["jwt_configuration"]?["alg"] == "PS256")
        #expect(try site.auth0("apply").output.contains("nothing to change"))
        try site.stack.startWorker(
            1, extra: fapi.merging(["AUTH0_CLIENT_ID": clientID, "AUTH0_CLIENT_SECRET": ""]) { $1 })
        let browser = TestClient()
        let landed = try browser.logIn(site.stack, as: DemoUser.skippy)
        #expect(landed.status == 302 && landed.header("location") == "/", "\(landed.status)")
        #expect(try site.stack.log("dev-tenant").contains("authorization request pushed"))
    }

    @Test func aMissingScopeStopsApplyBeforeItsFirstWriteNamingIt() throws {
        let site = try TenantSetupSite(
            miniAppsFile: Stack.exampleMiniApps,
            scopes: TestTenant.setupScopes.filter { $0 != "update:guardian_factors" })
        defer { site.stack.stop() }
        let applied = try site.auth0("apply")
        #expect(applied.status == 1)
        #expect(
            applied.output.contains(
                "AUTH0_MANAGEMENT_CLIENT_ID: the management application lacks the scope update:guardian_factors"),
            "\(applied.output)")
        #expect(try site.tenantWrites() == 0)
        // An application id the tenant does not know, and a management secret it refuses: one line each, naming the setting.
        let settings = try String(contentsOfFile: site.settingsFile, encoding: .utf8)
        try (settings + "AUTH0_CLIENT_ID=no-such-application\n").write(
            toFile: site.settingsFile, atomically: true, encoding: .utf8)
        let unknown = try site.auth0("plan")
        #expect(
            unknown.status == 1
                && unknown.output.contains("AUTH0_CLIENT_ID: the tenant has no application no-such-application"),
            "\(unknown.output)")
        try settings.replacingOccurrences(of: TenantSetupSite.admin.secret, with: "not-the-secret").write(
            toFile: site.settingsFile, atomically: true, encoding: .utf8)
        let refused = try site.auth0("plan")
        #expect(
            refused.status == 1
                && refused.output.contains(
                    "AUTH0_MANAGEMENT_CLIENT_ID or AUTH0_MANAGEMENT_CLIENT_SECRET: the tenant refused them"),
            "\(refused.output)")
        #expect(!refused.output.contains("not-the-secret"))
        #expect(try site.tenantWrites() == 0)
    }
}
