import Foundation
import Testing

/// nginx and the real worker over real sockets: pages, static files, limits, failures.
@Suite(.serialized) final class FoundationTests {
    let stack: Stack
    let client = TestClient()

    init() throws { stack = try Stack() }
    deinit { stack.stop() }

    @Test func homeAndLoggedOutPagesThroughNginx() throws {
        let home = try client.get(stack.baseURL + "/")
        #expect(home.status == 200)
        #expect(home.body.contains("Metadata demo"))
        #expect(home.body.contains("Log in"))
        #expect(home.header("content-security-policy")?.contains("frame-ancestors 'none'") == true)
        #expect(home.header("x-content-type-options") == "nosniff")
        let out = try client.get(stack.baseURL + "/logged-out")
        #expect(out.body.contains("You’re logged out."))
    }

    @Test func healthCheckAnswers200() throws {
        let health = try client.get(stack.baseURL + "/healthz")
        #expect(health.status == 200)
        #expect(health.body == "ok\n")
    }

    @Test func staticFilesComeFromNginxWithCacheHeaders() throws {
        let css = try client.get(stack.baseURL + "/static/app.css")
        #expect(css.status == 200)
        #expect(css.header("content-type")?.hasPrefix("text/css") == true)
        #expect(css.header("cache-control")?.contains("max-age=3600") == true)
        #expect(css.body.contains(".button"))
        let avatar = try client.get(stack.baseURL + "/static/avatar-placeholder.svg")
        #expect(avatar.status == 200)
        #expect(try client.get(stack.baseURL + "/favicon.ico").status == 200)
        // Pages link fingerprinted names, which nginx serves with a year-long, immutable lifetime.
        let home = try client.get(stack.baseURL + "/")
        let href = try #require(
            home.body.components(separatedBy: "rel=\"stylesheet\" href=\"").dropFirst().first?.components(
                separatedBy: "\""
            ).first)
        #expect(href.range(of: #"^/static/app\.[0-9a-f]{12}\.css$"#, options: .regularExpression) != nil, "\(href)")
        let fingerprinted = try client.get(stack.baseURL + href)
        #expect(fingerprinted.status == 200)
        #expect(fingerprinted.body == css.body)
        #expect(fingerprinted.header("cache-control") == "public, max-age=31536000, immutable")
        // nginx answered, not the worker: the worker's log has no line for these paths.
        #expect(try !stack.log("worker").contains("path=/static/app.css"))
    }

    @Test func unknownPathIs404AndWrongMethodIs405() throws {
        let missing = try client.get(stack.baseURL + "/no-such-page")
        #expect(missing.status == 404)
        #expect(missing.body.contains("Page not found"))
        let wrong = try client.send("PUT", stack.baseURL + "/")
        #expect(wrong.status == 405)
        #expect(wrong.header("allow") == "GET, HEAD")
    }

    @Test func bodyOverTheLimitIs413() throws {
        let big = [UInt8](repeating: UInt8(ascii: "a"), count: 70 * 1024)
        let answer = try client.send(
            "POST", stack.baseURL + "/", headers: [("Content-Type", "application/x-www-form-urlencoded")], body: big)
        #expect(answer.status == 413)
        #expect(answer.body.contains("too large"))
        #expect(try client.get(stack.baseURL + "/healthz").status == 200)
    }

    @Test func workerStopsCleanlyOnSIGTERM() throws {
        #expect(try client.get(stack.baseURL + "/").status == 200)
        #expect(stack.signal("worker", SIGTERM) == 0)
        #expect(try stack.log("worker").contains("msg=stopped unfinished=0"))
    }
}
