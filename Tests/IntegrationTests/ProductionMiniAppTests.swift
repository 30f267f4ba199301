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
        site = try ProductionNginx.miniAppsSite(for: stack, staticRoot: staticRoot)
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
        let page = MiniAppPage(entered.body)
        #expect(entered.status == 200 && page.title == "Announcements")
        #expect(page.signedIn == MiniAppPage.loggedIn("skippy@example.com"))
        #expect(page.announcements.count == 2, "\(entered.body)")
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

    /// Issue 49, L1: an app behind the site's mini-app locations (here one that answers the
    /// X-Auth-* headers it was sent) sees only what the check said, whatever the visitor sent under
    /// those names: the person's id, email and name, the check's assertion and token, and no login
    /// link or refusal word at all.
    @Test func aVisitorsOwnIdentityHeadersNeverReachTheApp() throws {
        let socket = stack.runDir + "/echo-announcements.sock"
        try stack.start(
            "echo-app", "/usr/bin/python3",
            [
                "-c",
                """
                import http.server, os, socketserver, sys
                class Echo(http.server.BaseHTTPRequestHandler):
                    def do_GET(self):
                        body = "".join(f"{k.lower()}: {v}\\n" for k, v in self.headers.items()
                                       if k.lower().startswith("x-auth-")).encode()
                        self.send_response(200)
                        self.send_header("Content-Length", str(len(body)))
                        self.end_headers()
                        self.wfile.write(body)
                    def log_message(self, *args):
                        pass
                server = socketserver.UnixStreamServer(sys.argv[1], Echo)
                os.chmod(sys.argv[1], 0o666)
                server.serve_forever()
                """, socket,
            ])
        try stack.waitForSocket(socket, log: "echo-app")
        let text = try String(contentsOfFile: Stack.repoRoot + "/deploy/nginx-site.conf", encoding: .utf8)
        let echoing = try ProductionNginx(site: text, staticRoot: staticRoot, socketDirectory: stack.runDir) {
            ProductionNginx.withMiniApps($0).replacingOccurrences(
                of: "mini-announcements.sock", with: "echo-announcements.sock")
        }
        defer { echoing.stop() }
        let skippy = TestClient()
        try skippy.logIn(stack, as: DemoUser.skippy)
        let forged = [
            "X-Auth-User-Id: auth0|forged", "X-Auth-Email: forged@evil.example", "X-Auth-Name: Forged",
            "X-Auth-Assertion: forged.assertion.value", "X-Auth-Access-Token: forged-token",
            "X-Auth-Login: https://evil.example/", "X-Auth-Refusal: forged", "X-Auth-Language: forged",
        ]
        let seen = try echoing.fetch(
            "/announcements/", cookie: try #require(skippy.cookieHeader(for: stack.baseURL + "/")), headers: forged)
        #expect(seen.status == 200, "\(seen.status) \(seen.body)")
        let headers = Dictionary(
            seen.body.split(separator: "\n").map { line -> (String, String) in
                let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                return (parts[0], parts.count > 1 ? parts[1] : "")
            }, uniquingKeysWith: { first, _ in first })
        #expect(headers["x-auth-user-id"] == "auth0|6489e0a1c2b3d4e5f6a7b8ca", "\(seen.body)")
        #expect(headers["x-auth-email"] == "skippy@example.com")
        #expect(headers["x-auth-name"] == "skippy@example.com")
        #expect(headers["x-auth-assertion"]?.hasPrefix("eyJ") == true)
        #expect(headers["x-auth-access-token"]?.hasPrefix("eyJ") == true)
        #expect(headers["x-auth-language"] == "en", "the product's language, for the app's pages")
        #expect(headers["x-auth-login"] == nil && headers["x-auth-refusal"] == nil)
        #expect(!seen.body.contains("forged") && !seen.body.contains("Forged") && !seen.body.contains("evil"))
    }
}
