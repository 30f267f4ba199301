import Foundation
import TestSupport
import Testing
import Web

/// Issue 39, item 2's refusals, against the dev tenant as Auth0 documents it: an API no
/// Multi-Resource Refresh Token policy names (the tenant silently answers for the login's own
/// audience: the product hands nothing on), a scope the person's permissions do not grant (RBAC),
/// a permission the app's rules need that the token does not carry, and roles from the ID token's
/// claim (the tenant's stand-in for Auth0's roles Action).
@Suite(.serialized) final class MiniAppAPITests {
    let stack: Stack
    let folder: String

    init() throws {
        folder = NSTemporaryDirectory() + "mini-apps-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let file = folder + "/mini-apps.json"
        try #"""
        {"roles_claim": "https://metadata-demo.example/roles",
         "apps": [
          {"name": "reports", "title": {"en": "Reports", "zh": "报告"}, "path": "/reports/",
           "api": {"audience": "https://reports.metadata-demo.example/", "scope": "read:reports"}},
          {"name": "notes", "title": {"en": "Notes", "zh": "笔记"}, "path": "/notes/",
           "api": {"audience": "https://announcements.metadata-demo.example/", "scope": "read:announcements"}},
          {"name": "ledger", "title": {"en": "Ledger", "zh": "账本"}, "path": "/ledger/",
           "api": {"audience": "https://account.metadata-demo.example/", "scope": "read:account"},
           "allow": {"permissions": ["read:account", "read:ledger"]}},
          {"name": "desk", "title": {"en": "Editors' desk", "zh": "编辑台"}, "path": "/desk/",
           "allow": {"roles": ["editor", "admin"]}},
          {"name": "vault", "title": {"en": "Vault", "zh": "保险库"}, "path": "/vault/",
           "api": {"audience": "https://account.metadata-demo.example/", "scope": "read:account"},
           "_example_api": {"step_up": "mfa"}}
        ]}
        """#.write(toFile: file, atomically: true, encoding: .utf8)
        stack = try Stack(miniAppsFile: file)
    }

    deinit {
        stack.stop()
        try? FileManager.default.removeItem(atPath: folder)
    }

    @Test func anAPIOutsideThePoliciesGetsNoTokenAndTheAppIsNotReached() throws {
        let browser = TestClient()
        try browser.logIn(stack, as: DemoUser.skippy)
        let answer = try browser.get(stack.baseURL + "/reports/")
        #expect(answer.status == 403)
        #expect(answer.body.contains("Reports cannot open for you"), "\(answer.body)")
        #expect(answer.body.contains("could not be given access to its service on your behalf"))
        #expect(!answer.body.contains("Reports for"), "the app was never reached")
        #expect(try stack.log("dev-tenant").contains("token grant"), "the tenant was asked")
        #expect(!(try stack.log("dev-tenant").contains("multi-resource token issued")), "and answered for the default")
        #expect(
            try eventuallyLogged("mini_app_api_token_unavailable", "app=reports", "reason=audience_mismatch"),
            "\(stack.logForAMessage("worker").suffix(1500))")
        let chinese = try browser.get(stack.baseURL + "/reports/", headers: [("Accept-Language", "zh-CN")])
        #expect(chinese.status == 403 && chinese.body.contains("「报告」无法为你打开"))
    }

    @Test func aScopeThePersonIsNotGrantedIsARefusal() throws {
        let browser = TestClient()
        try browser.logIn(stack, as: DemoUser.random)
        let answer = try browser.get(stack.baseURL + "/notes/")
        #expect(
            answer.status == 403 && answer.body.contains("Notes needs a permission your account has not been given."))
        #expect(try eventuallyLogged("mini_app_refused", "app=notes", "rule=permissions"))
        // skippy holds the permission: the same app opens, its API answering.
        let skippy = TestClient()
        try skippy.logIn(stack, as: DemoUser.skippy)
        let opened = try skippy.get(stack.baseURL + "/notes/")
        #expect(opened.status == 200 && MiniAppPage(opened.body).announcements.count == 2, "\(opened.body)")
    }

    @Test func aPermissionTheTokenDoesNotCarryIsARefusal() throws {
        let browser = TestClient()
        try browser.logIn(stack, as: DemoUser.skippy)
        let answer = try browser.get(stack.baseURL + "/ledger/", headers: [("Accept-Language", "zh-CN")])
        #expect(answer.status == 403 && answer.body.contains("「账本」需要一项你的帐户尚未获得的权限。"))
        #expect(!answer.body.contains("read:ledger"), "the page does not name the permission")
    }

    private func eventuallyLogged(_ parts: String...) throws -> Bool {
        eventually(within: 5) {
            let log = stack.logForAMessage("worker")
            return log.split(separator: "\n").contains { line in parts.allSatisfy { line.contains($0) } }
        }
    }

    @Test func rolesFromTheIDTokensClaimLetInOrKeepOut() throws {
        let skippy = TestClient()
        try skippy.logIn(stack, as: DemoUser.skippy)  // an editor
        let entered = try skippy.get(stack.baseURL + "/desk/")
        let desk = MiniAppPage(entered.body)
        #expect(entered.status == 200 && desk.title == "Editors' desk")
        #expect(desk.signedIn == MiniAppPage.loggedIn("skippy@example.com"))
        let random = TestClient()
        try random.logIn(stack, as: DemoUser.random)  // no role
        let refused = try random.get(stack.baseURL + "/desk/")
        #expect(refused.status == 403)
        #expect(refused.body.contains("is open to people with a role your account does not have"))
        #expect(!refused.body.contains("editor"), "the page names no role")
        #expect(try eventuallyLogged("mini_app_refused", "app=desk", "rule=roles"))
    }

    /// RFC 9470: Vault's API asks for a second factor (its token says only a password, in the
    /// claims the tenant's stand-in for a post-login Action adds); the app sends the browser to the
    /// product's login with the API's `acr_values`; after the one-time code the person is back on
    /// the page, and the API answers with the token the new login got.
    @Test func anAPIsStepUpChallengeRoundTrips() throws {
        let browser = TestClient()
        try browser.logIn(stack, as: DemoUser.skippy)
        let challenged = try browser.get(stack.baseURL + "/vault/records?id=7")
        #expect(challenged.status == 302, "\(challenged.body)")
        let login = try #require(challenged.header("location"))
        #expect(
            login == "/login?returnTo=%2Fvault%2Frecords%3Fid%3D7&acr_values="
                + "http%3A%2F%2Fschemas.openid.net%2Fpape%2Fpolicies%2F2007%2F06%2Fmulti-factor")
        let authorize = try #require(try browser.get(stack.baseURL + login).header("location"))
        let tenant = authorize.components(separatedBy: "/authorize")[0]
        let codePage = try browser.get(authorize)
        #expect(codePage.body.contains("action=\"/u/mfa\""), "the tenant asks for the code")
        let passed = try browser.passCode(codePage, tenant: tenant, email: DemoUser.skippy.email)
        let callback = try #require(passed.header("location"), "\(passed.status)")
        #expect(try browser.get(callback).header("location") == "/vault/records?id=7")
        let opened = try browser.get(stack.baseURL + "/vault/records?id=7")
        let vault = MiniAppPage(opened.body)
        #expect(opened.status == 200 && vault.details["Service"] == "Vault API", "\(opened.body)")
        #expect(vault.details["Signed in with a second factor"] == "Yes")
    }
}
