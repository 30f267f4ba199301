import Foundation
import TestSupport
import Testing
import Web

/// Issue 49, I3: an app's API token is kept until a minute before it expires, so it outlives a
/// change at the provider by at most its life (the API's `token_lifetime`; the example APIs' live
/// ten minutes). A permission removed at the provider stops passing the `permissions` rule at the
/// next renewal: here the Account API's tokens live 65 s, so the kept one is renewed after 5 s.
@Suite(.serialized) final class MiniAppPermissionRenewalTests {
    let stack: Stack
    let folder: String

    init() throws {
        folder = NSTemporaryDirectory() + "mini-app-renewal-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let tenant = try TestTenant.writeAccountVariant(
            into: folder, name: "tenant.json", lifetime: 65, skippyReadsAccount: true)
        let file = folder + "/mini-apps.json"
        try #"""
        {"apps": [
          {"name": "ledger", "title": {"en": "Ledger", "zh": "账本"}, "path": "/ledger/",
           "api": {"audience": "https://account.metadata-demo.example/", "scope": "read:account"},
           "allow": {"permissions": ["read:account"]}}
        ]}
        """#.write(toFile: file, atomically: true, encoding: .utf8)
        stack = try Stack(workers: 2, tenantEnvironment: ["DEV_TENANT_CONFIG": tenant], miniAppsFile: file)
    }

    deinit {
        stack.stop()
        try? FileManager.default.removeItem(atPath: folder)
    }

    @Test func aPermissionRemovedAtTheProviderStopsPassingAtTheNextRenewal() throws {
        let skippy = TestClient()
        try skippy.logIn(stack, as: DemoUser.skippy)
        #expect(try skippy.get(stack.baseURL + "/ledger/").status == 200)
        let obtained = Date()
        let removed = try TestTenant.writeAccountVariant(
            into: folder, name: "tenant-removed.json", lifetime: 65, skippyReadsAccount: false)
        try stack.restartTenant(["DEV_TENANT_CONFIG": removed])
        #expect(try skippy.get(stack.baseURL + "/ledger/").status == 200, "the kept token still holds it")
        // Time must pass: the kept token is renewed once it has less than a minute to live.
        Thread.sleep(forTimeInterval: max(0, 6 - Date().timeIntervalSince(obtained)))
        let refused = try skippy.get(stack.baseURL + "/ledger/")
        #expect(refused.status == 403 && refused.body.contains("needs a permission"), "\(refused.status)")
        #expect(try skippy.get(stack.baseURL + "/").body.contains("You’re logged in!"), "the session goes on")
    }
}
