import Foundation
import Testing
import Web

/// `deploy/nginx-site.conf`'s shipped-off mini apps turned on as its comment says, in front of a
/// worker given make run's mini-app file and each example app and API on the sockets the site
/// names (rewritten to the test's folder, as every path of the site is): the guide's steps, tried.
@Suite(.serialized) final class ProductionMiniAppTests {
    let stack: Stack
    let site: ProductionNginx
    let staticRoot = NSTemporaryDirectory() + "static-root-\(UUID().uuidString.prefix(8))"

    init() throws {
        stack = try Stack(miniAppsFile: Stack.exampleMiniApps)
        try FileManager.default.createSymbolicLink(
            atPath: stack.runDir + "/1.sock", withDestinationPath: stack.runDir + "/metadata-demo.sock")
        try Stack.check(
            Stack.binDir + "/metadata-demo", ["publish-static", staticRoot + "/static"],
            environment: ["PUBLIC_DIR": Stack.repoRoot + "/Public"])
        if getuid() == 0 { try Stack.check("/bin/chmod", ["-R", "a+rX", staticRoot]) }
        let text = try String(contentsOfFile: Stack.repoRoot + "/deploy/nginx-site.conf", encoding: .utf8)
        site = try ProductionNginx(site: text, staticRoot: staticRoot, socketDirectory: stack.runDir) {
            ProductionNginx.withMiniApps($0)
        }
    }

    deinit {
        site.stop()
        stack.stop()
        try? FileManager.default.removeItem(atPath: staticRoot)
    }

    /// As shipped, the mini apps are off: their paths are the worker's own 404.
    @Test func theMiniAppsAreOffAsShipped() throws {
        let shipped = try String(contentsOfFile: Stack.repoRoot + "/deploy/nginx-site.conf", encoding: .utf8)
        #expect(
            !shipped.contains("\n    location /announcements/") && shipped.contains("\n    #location /announcements/ {")
        )
    }

    @Test func theExampleAppsWorkBehindTheProductionSite() throws {
        let skippy = TestClient()
        try skippy.logIn(stack, as: DemoUser.skippy)
        let cookie = try #require(skippy.cookieHeader(for: stack.baseURL + "/"))
        let entered = try site.fetch("/announcements/", cookie: cookie)
        #expect(entered.status == 200 && entered.body.hasPrefix("Announcements for auth0|6489e0a1c2b3d4e5f6a7b8ca"))
        #expect(entered.body.contains("API 200: "), "\(entered.body)")
        #expect(entered.headers["strict-transport-security"]?.hasPrefix("max-age=63072000") == true)
        // Account asks for a second factor: the login link asks the provider for it.
        let stepUp = try site.fetch("/account/", cookie: cookie)
        #expect(stepUp.status == 302 && stepUp.headers["location"]?.contains("acr_values=http") == true)

        let random = TestClient()
        try random.logIn(stack, as: DemoUser.random)
        let refused = try site.fetch(
            "/announcements/", cookie: try #require(random.cookieHeader(for: stack.baseURL + "/")))
        #expect(
            refused.status == 403 && refused.body.contains("Your account has not been given access to Announcements."))
        #expect(refused.headers["strict-transport-security"]?.hasPrefix("max-age=63072000") == true)

        let visitor = try site.fetch("/announcements/news?a=1&b=2")
        #expect(visitor.status == 302)
        #expect(
            visitor.headers["location"]?.hasSuffix("/login?returnTo=%2Fannouncements%2Fnews%3Fa%3D1%26b%3D2") == true)
    }
}
