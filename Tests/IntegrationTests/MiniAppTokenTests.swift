import Foundation
import TestSupport
import Testing
import Web

/// Issue 49, M1 and M2, through nginx with two workers and the dev tenant's reuse detection (a
/// spent refresh token presented again revokes its whole family, as Auth0's does): two apps on one
/// API asking different scopes each get a token of exactly their own scopes, whichever asks first;
/// and no check outcome ends the session, although nginx never hands the browser the `Set-Cookie`
/// of a check that refused or of an app that answered an error.
@Suite(.serialized) final class MiniAppTokenTests {
    let stack: Stack
    let folder: String

    init() throws {
        folder = NSTemporaryDirectory() + "mini-app-tokens-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let tenant = try TestTenant.writeWithAnnouncementsWriting(into: folder)
        let file = folder + "/mini-apps.json"
        try #"""
        {"apps": [
          {"name": "bulletin", "title": {"en": "Bulletin", "zh": "公告栏"}, "path": "/bulletin/",
           "api": {"audience": "https://announcements.metadata-demo.example/", "scope": "read:announcements"}},
          {"name": "editor", "title": {"en": "Editor", "zh": "编辑"}, "path": "/editor/",
           "api": {"audience": "https://announcements.metadata-demo.example/",
                   "scope": "read:announcements write:announcements"}},
          {"name": "reports", "title": {"en": "Reports", "zh": "报告"}, "path": "/reports/",
           "api": {"audience": "https://reports.metadata-demo.example/", "scope": "read:reports"}},
          {"name": "profile", "title": {"en": "Profile", "zh": "资料"}, "path": "/profile/",
           "api": {"audience": "https://account.metadata-demo.example/", "scope": "read:account"}}
        ]}
        """#.write(toFile: file, atomically: true, encoding: .utf8)
        stack = try Stack(workers: 2, tenantEnvironment: ["DEV_TENANT_CONFIG": tenant], miniAppsFile: file)
    }

    deinit {
        stack.stop()
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// The scopes of the token worker `index`'s check hands `app` for `browser`'s person.
    private func scopes(_ browser: TestClient, _ app: String, worker index: Int) throws -> [String] {
        let cookie = try #require(browser.cookieHeader(for: stack.baseURL + "/\(app)/"))
        let answer = try stack.askCheck("/auth/check/\(app)", cookie: cookie, worker: index)
        let line = try #require(answer.split(separator: "\r\n").first { $0.hasPrefix("X-Auth-Access-Token: ") })
        let parts = line.dropFirst("X-Auth-Access-Token: ".count).split(separator: ".")
        let claims = try #require(Base64URL.decode(String(parts[1])).flatMap { JSONValue.parse($0) })
        return (claims["scope"]?.string ?? "").split(separator: " ").map(String.init).sorted()
    }

    @Test(arguments: [["bulletin", "editor"], ["editor", "bulletin"]])
    func twoAppsOnOneAPIEachGetTheirOwnScopes(_ order: [String]) throws {
        let skippy = TestClient()
        try skippy.logIn(stack, as: DemoUser.skippy)
        for app in order {
            let page = try skippy.get(stack.baseURL + "/\(app)/")
            #expect(page.status == 200, "\(app): \(page.status) \(page.body)")
        }
        for worker in [1, 2] {
            #expect(try scopes(skippy, "bulletin", worker: worker) == ["read:announcements"])
            #expect(try scopes(skippy, "editor", worker: worker) == ["read:announcements", "write:announcements"])
        }
    }

    /// Each way a check can spend the refresh token without its rotation reaching the browser:
    /// a scope the person is not granted, an API no policy names (the tenant answers for another
    /// audience), and the app's own error (a method it does not serve). Past the grace in which
    /// a rotation's result is shared, the next exchange of each still works and the session
    /// lives on both workers; the tenant never sees a spent token again.
    @Test func noCheckOutcomeEndsTheSession() throws {
        let refused = TestClient()
        try refused.logIn(stack, as: DemoUser.random)  // holds no announcements permission
        #expect(try refused.get(stack.baseURL + "/bulletin/").status == 403)
        let elsewhere = TestClient()
        try elsewhere.logIn(stack, as: DemoUser.random)
        #expect(try elsewhere.get(stack.baseURL + "/reports/").status == 403)
        let failed = TestClient()
        try failed.logIn(stack, as: DemoUser.skippy)
        let posted = try failed.post(stack.baseURL + "/bulletin/", form: [("x", "1")])
        #expect(posted.status == 501, "the app answered its own error: \(posted.status)")
        #expect(try stack.log("dev-tenant").components(separatedBy: "grant_type=refresh_token").count == 4)
        // Time must pass here: the worker shares a rotation's result for 10 s (TokenRenewer's
        // grace), after which today's browsers would present the spent token.
        Thread.sleep(forTimeInterval: 11)
        for (browser, next) in [(refused, "profile"), (elsewhere, "profile"), (failed, "editor")] {
            let page = try browser.get(stack.baseURL + "/\(next)/")
            #expect(page.status == 200, "\(next): \(page.status) \(page.header("location") ?? page.body)")
            for _ in 0..<4 { #expect(try browser.get(stack.baseURL + "/").body.contains("You’re logged in!")) }
        }
        #expect(try !stack.log("dev-tenant").contains("refresh token reuse detected"))
    }
}
