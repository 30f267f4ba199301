import Foundation
import Glibc
import Testing

/// A tenant that is down when the worker starts (issue 23, item 2): not a wrong setting. The
/// worker serves the "Auth0 unreachable" page meanwhile and the product once the tenant answers,
/// without anyone acting; it used to give up after 30 s with exit status 2, naming AUTH0_DOMAIN.
@Suite(.serialized) struct TenantAtStartTests {
    @Test func aTenantDownAtStartAndBack90SecondsLaterIsServedWithoutAnyoneActing() throws {
        let stack = try Stack(workers: 0)
        defer { stack.stop() }
        stack.signal("dev-tenant", SIGTERM)  // nginx answers 502 for the tenant now
        let began = Date()
        try stack.startWorker(waitSeconds: 30)
        #expect(Date().timeIntervalSince(began) < 25, "it serves after asking 15 s, not exiting after 30 s")
        let client = TestClient()
        let page = try client.get(stack.baseURL + "/")
        #expect(page.status == 503)
        #expect(page.body.contains("Auth0 could not be reached"))
        #expect(page.header("retry-after") == "30")
        #expect(try client.get(stack.baseURL + "/healthz").status == 503)
        #expect(try client.get(stack.baseURL + "/login").status == 503)
        #expect(try stack.log("worker").contains("tenant unreachable at start: answering 503 until it answers"))
        // Past the old 30 s of patience and systemd's 90 s start timeout: still serving the page.
        while Date().timeIntervalSince(began) < 90 {
            usleep(5_000_000)
            #expect(stack.isRunning("worker"))
        }
        #expect(try client.get(stack.baseURL + "/").status == 503)
        try stack.startTenant()
        var served = false
        let back = Date()
        while !served, Date().timeIntervalSince(back) < 20 {
            usleep(500_000)
            served = (try? client.get(stack.baseURL + "/healthz").status) == 200
        }
        #expect(served, "served \(Date().timeIntervalSince(back)) s after the tenant came back")
        #expect(try stack.log("worker").contains("tenant answers: serving"))
        let browser = TestClient()
        try browser.logIn(stack, as: DemoUser.skippy)
        #expect(try browser.get(stack.baseURL + "/").body.contains("You’re logged in!"))
    }

    /// A tenant that answers with another issuer is a wrong setting: exit 2 at once, one line.
    @Test func aTenantAnsweringWronglyIsAWrongSettingStill() throws {
        let stack = try Stack(workers: 0)
        defer { stack.stop() }
        try stack.restartTenant(["DEV_TENANT_ISSUER": "https://another-tenant.example.com/"])
        try? stack.startWorker()
        for _ in 0..<100 where stack.isRunning("worker") { usleep(100_000) }
        #expect(!stack.isRunning("worker"))
        #expect(stack.signal("worker", 0) == 2)
        let log = try stack.log("worker")
        #expect(log.contains("AUTH0_DOMAIN") && log.contains("another-tenant.example.com"), "\(log)")
    }
}
