import Foundation
import Testing
import Web

/// Issue 49, item 7, behind the production site's own nginx (its mini apps turned on as the guide
/// says): a provider that lists many groups in its tokens. The check hands nginx a 12 KB access
/// token whole (the app gets it, no 502 "upstream sent too big header"); one that would not fit
/// nginx's buffer is refused with a page in the person's language and a log line naming the app
/// and the sizes; the largest answer given is a gauge.
@Suite(.serialized) final class MiniAppLargeTokenTests {
    let stack: Stack
    let site: ProductionNginx
    let folder: String
    let staticRoot = NSTemporaryDirectory() + "static-root-\(UUID().uuidString.prefix(8))"

    init() throws {
        folder = NSTemporaryDirectory() + "large-tokens-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let tenant = try TestTenant.writeManyRoles(into: folder, name: "tenant-12k.json", count: 250)
        stack = try Stack(tenantEnvironment: ["DEV_TENANT_CONFIG": tenant], miniAppsFile: Stack.exampleMiniApps)
        site = try ProductionNginx.miniAppsSite(for: stack, staticRoot: staticRoot)
    }

    deinit {
        site.stop()
        stack.stop()
        try? FileManager.default.removeItem(atPath: staticRoot)
        try? FileManager.default.removeItem(atPath: folder)
    }

    private func cookie(of browser: TestClient) throws -> String {
        try #require(browser.cookieHeader(for: stack.baseURL + "/"))
    }

    @Test func aLargeTokenReachesTheAppAndOneTooLargeIsRefusedWithAPage() throws {
        let skippy = TestClient()
        try skippy.logIn(stack, as: DemoUser.skippy)
        let entered = try site.fetch("/announcements/", cookie: try cookie(of: skippy))
        #expect(
            entered.status == 200 && MiniAppPage(entered.body).announcements.count == 2,
            "\(entered.status) \(entered.body)")
        let token = try stack.checkHeader("X-Auth-Access-Token", for: skippy, check: "/auth/check/announcements")
        #expect(token.utf8.count >= 12_000, "\(token.utf8.count) bytes")
        let gauge = Stack.sum(
            of: "metadata_demo_mini_app_check_answer_largest_bytes", inMetrics: try site.metrics(worker: "1"))
        #expect(gauge >= 12_000 && gauge <= 24 * 1024, "\(gauge)")

        // Twice as many groups: more than nginx's buffer holds.
        let larger = try TestTenant.writeManyRoles(into: folder, name: "tenant-30k.json", count: 650)
        try stack.restartTenant(["DEV_TENANT_CONFIG": larger])
        for (language, words) in [("en", "is too large to pass on"), ("zh", "太大，无法传递")] {
            let browser = TestClient()
            try browser.logIn(stack, as: DemoUser.skippy)
            let refused = try site.fetch(
                "/announcements/", cookie: try cookie(of: browser), headers: ["Accept-Language: \(language)"])
            #expect(refused.status == 403 && refused.body.contains(words), "\(refused.status) \(refused.body)")
        }
        let line = try #require(
            try stack.log("worker").split(separator: "\n").first { $0.contains("mini_app_answer_too_large") })
        #expect(line.contains("app=announcements") && line.contains("limit=24576"), "\(line)")
        #expect(try skippy.get(stack.baseURL + "/").body.contains("You’re logged in!"), "the session goes on")
    }
}
