import Foundation
import TestSupport
import Testing
import Web

/// Issue 60: the Auth0 tenant set up by `metadata-demo auth0 apply`, from a tenant that holds
/// nothing but a management application (and the demo people), through the dev tenant's
/// Management API at its default rate limit; then the whole person's path on what it set up.
@Suite(.serialized) final class TenantSetupTests {
    let site: TenantSetupSite
    var stack: Stack { site.stack }
    var settingsFile: String { site.settingsFile }

    init() throws { site = try TenantSetupSite(miniAppsFile: Stack.exampleMiniApps) }
    deinit { site.stack.stop() }

    func auth0(_ verb: String) throws -> (status: Int32, output: String) { try site.auth0(verb) }
    func tenantWrites() throws -> Int { try site.tenantWrites() }
    func siteSettings() throws -> [String: String] { try site.siteSettings() }
    func adminToken(scope: String) throws -> String { try site.adminToken(scope: scope) }

    @Test func fromABareTenantTheSiteAndItsMiniAppsWorkAndASecondApplyWritesNothing() throws {
        let plan = try auth0("plan")
        #expect(plan.status == 0, "\(plan.output)")
        #expect(plan.output.contains("create  application metadata-demo"), "\(plan.output)")
        #expect(plan.output.contains("create  API https://announcements.metadata-demo.example/"))
        #expect(try tenantWrites() == 0)

        let applied = try auth0("apply")
        #expect(applied.status == 0, "\(applied.output)")
        let settings = try siteSettings()
        let clientID = try #require(settings["AUTH0_CLIENT_ID"], "\(applied.output)")
        let secretFile = stack.runDir + "/client-secret"
        let mode = try FileManager.default.attributesOfItem(atPath: secretFile)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(!applied.output.contains(try String(contentsOfFile: secretFile, encoding: .utf8).trimmingWhitespace()))
        #expect(!(plan.output + applied.output).contains(TenantSetupSite.admin.secret), "never printed")
        let writes = try tenantWrites()
        #expect(writes > 0)

        let again = try auth0("apply")
        #expect(again.status == 0 && again.output.contains("nothing to change"), "\(again.output)")
        #expect(try tenantWrites() == writes)
        // Without its id in the file (a settings file written again by hand), it is found by its name.
        let text = try String(contentsOfFile: settingsFile, encoding: .utf8)
        try text.replacingOccurrences(of: "AUTH0_CLIENT_ID=\(clientID)\n", with: "").write(
            toFile: settingsFile, atomically: true, encoding: .utf8)
        let found = try auth0("apply")
        #expect(
            found.output.contains("wrote AUTH0_CLIENT_ID=\(clientID)") && found.output.contains("nothing to change"))
        #expect(try siteSettings()["AUTH0_CLIENT_ID"] == clientID)
        #expect(try tenantWrites() == writes)

        // The person's path on what the command set up.
        let secret = try String(contentsOfFile: secretFile, encoding: .utf8).trimmingWhitespace()
        try stack.startWorker(1, extra: ["AUTH0_CLIENT_ID": clientID, "AUTH0_CLIENT_SECRET": secret])
        let browser = TestClient()
        try browser.logIn(stack, as: DemoUser.skippy)
        let home = try browser.get(stack.baseURL + "/")
        #expect(home.status == 200 && home.body.contains("skippy@example.com"), "\(home.status)")
        let csrf = try #require(TestClient.hiddenField("csrf", in: home.body))
        let saved = try browser.post(
            stack.baseURL + "/affirmation",
            form: [("csrf", csrf), ("affirmation", "Set up by one command"), ("action", "save")],
            headers: [("Origin", stack.baseURL)])
        #expect(saved.status == 303, "\(saved.status) \(saved.body)")
        #expect(try browser.get(stack.baseURL + "/").body.contains("Set up by one command"))
        // Announcements (its API's token, by the refresh-token policy apply set) and Account
        // (a second factor, which apply enabled, and a permission from its API).
        #expect(try browser.get(stack.baseURL + "/announcements/").status == 200)
        let account = try browser.stepUp(stack, DemoUser.skippy.email, at: "/account/")
        #expect(account.status == 200, "\(account.status) \(account.body)")
        // A tenant-ended session reaches the site by the back-channel URL apply set.
        let admin = try adminToken(scope: "delete:sessions")
        let deleted = try TestClient().send(
            "DELETE",
            stack.tenantURL + "/api/v2/users/" + PercentEncoding.encode("auth0|6489e0a1c2b3d4e5f6a7b8ca") + "/sessions",
            headers: [("Authorization", "Bearer " + admin)])
        #expect(deleted.status == 202)
        #expect(
            eventually(within: 10, every: 0.1) { (try? browser.get(stack.baseURL + "/me").status) == 401 })
    }

    /// What a person changed by hand in the dashboard is planned back, and check-config names
    /// each disagreement with its dashboard path; a changed setting (another base URL, a new
    /// mini app) plans exactly the fields it moves.
    @Test func aHandChangedTenantAndChangedSettingsArePlannedFieldByField() throws {
        #expect(try auth0("apply").status == 0)
        let clientID = try #require(try siteSettings()["AUTH0_CLIENT_ID"])
        func management(_ method: String, _ path: String, _ body: JSONValue) throws -> Int {
            try site.management(method, path, body).status
        }
        #expect(
            try management(
                "PATCH", "clients/" + clientID,
                .object([
                    "callbacks": .array(["https://elsewhere.example/callback"]),
                    "refresh_token": .object(["rotation_type": "non-rotating", "expiration_type": "non-expiring"]),
                ])) == 200)
        #expect(try management("PUT", "guardian/factors/otp", .object(["enabled": .bool(false)])) == 200)
        let plan = try auth0("plan").output
        #expect(plan.contains("callbacks lack \(stack.baseURL)/callback"), "\(plan)")
        #expect(plan.contains("refresh_token.rotation_type: non-rotating -> rotating"))
        #expect(plan.contains("refresh_token.expiration_type: non-expiring -> expiring"))
        #expect(plan.contains("change  MFA factor otp"))
        #expect(plan.contains("0 to create, 2 to change"), "\(plan)")

        // check-config, with the application's secret as the service has it.
        let check = try Stack.run(
            Stack.binDir + "/metadata-demo", ["--env-file", settingsFile, "check-config"],
            environment: ["PATH": "/usr/bin:/bin", "AUTH0_CLIENT_SECRET_FILE": stack.runDir + "/client-secret"],
            clean: true)
        #expect(check.status == 1)
        let disagreements = check.output.split(separator: "\n").filter { $0.contains("AUTH0: ") }
        // The hand-made refresh_token replaced the policies too: five disagreements.
        #expect(disagreements.count == 5, "\(disagreements)")
        #expect(
            check.output.contains(
                "refresh_token.policies lack a policy for https://announcements.metadata-demo.example/"))
        #expect(
            check.output.contains(
                "AUTH0: application metadata-demo: callbacks lack \(stack.baseURL)/callback (Applications > "
                    + "Applications > metadata-demo > Settings; `metadata-demo auth0 apply` sets it)"),
            "\(check.output)")
        #expect(check.output.contains("AUTH0: MFA factor otp: enabled: false -> true (Security > Multi-factor Auth"))

        #expect(try auth0("apply").status == 0)
        let settled = try Stack.run(
            Stack.binDir + "/metadata-demo", ["--env-file", settingsFile, "check-config"],
            environment: ["PATH": "/usr/bin:/bin", "AUTH0_CLIENT_SECRET_FILE": stack.runDir + "/client-secret"],
            clean: true)
        #expect(
            settled.status == 0 && settled.output.contains("the tenant set up as the site needs"), "\(settled.output)")

        // Another base URL: its three addresses, nothing else.
        let moved = "http://127.0.0.1:\(try Stack.freePort())"
        var text = try String(contentsOfFile: settingsFile, encoding: .utf8)
        text = text.replacingOccurrences(of: "APP_BASE_URL=\(stack.baseURL)", with: "APP_BASE_URL=\(moved)")
        // A new mini app with an API of its own.
        let apps = stack.runDir + "/mini-apps-more.json"
        var document = try #require(
            JSONValue.parse(Array(try Data(contentsOf: URL(fileURLWithPath: Stack.exampleMiniApps)))))
        if case .object(var top) = document, case .array(var list)? = top["apps"] {
            list.append(
                .object([
                    "name": "reports", "title": .object(["en": "Reports", "zh": "报告"]), "path": "/reports/",
                    "api": .object(["audience": "https://reports.metadata-demo.example/", "scope": "read:reports"]),
                    "allow": .object(["email_verified": .bool(true)]),
                ]))
            top["apps"] = .array(list)
            document = .object(top)
        }
        try Data(document.serialized()).write(to: URL(fileURLWithPath: apps))
        text = text.replacingOccurrences(of: "MINI_APPS_FILE=\(Stack.exampleMiniApps)", with: "MINI_APPS_FILE=\(apps)")
        try text.write(toFile: settingsFile, atomically: true, encoding: .utf8)
        let replanned = try auth0("plan").output
        let application = replanned.components(separatedBy: "change  application metadata-demo")
        #expect(application.count == 2, "\(replanned)")
        let fields = application.last?.split(separator: "\n").prefix { $0.hasPrefix("          ") } ?? []
        #expect(
            fields.map { $0.trimmingCharacters(in: .whitespaces) } == [
                "callbacks lack \(moved)/callback", "allowed_logout_urls lack \(moved)/logged-out",
                "refresh_token.policies lack a policy for https://reports.metadata-demo.example/",
                "oidc_logout.backchannel_logout_urls lack \(moved)/backchannel-logout",
            ], "\(replanned)")
        #expect(replanned.contains("create  API https://reports.metadata-demo.example/"))
        #expect(
            replanned.contains(
                "create  user access of the application metadata-demo to https://reports.metadata-demo.example/"))
        #expect(replanned.contains("2 to create, 1 to change"), "\(replanned)")
    }
}
