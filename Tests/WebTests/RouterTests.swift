import Testing
import Web

@Suite struct RouterTests {
    private func router() -> Router<Handler> {
        var router = Router<Handler>()
        router.add("GET", "/") { _ in .text("home") }
        router.add("POST", "/save") { _ in .text("saved") }
        router.add("GET", "/save") { _ in .text("form") }
        return router
    }

    private func body(_ match: Router<Handler>.Match, _ request: Request) throws -> String? {
        guard case .handler(let handler) = match else { return nil }
        return String(decoding: try handler(request).body, as: UTF8.self)
    }

    @Test func findsHandlerByMethodAndExactPath() throws {
        let request = Request(method: "POST", path: "/save")
        #expect(try body(router().match(request), request) == "saved")
    }

    @Test func headUsesTheGetHandler() throws {
        let request = Request(method: "HEAD", path: "/")
        #expect(try body(router().match(request), request) == "home")
    }

    @Test func unknownPathIsNotFound() {
        guard case .notFound = router().match(Request(method: "GET", path: "/nope")) else {
            Issue.record("expected notFound")
            return
        }
        guard case .notFound = router().match(Request(method: "GET", path: "/save/")) else {
            Issue.record("paths match exactly")
            return
        }
    }

    @Test func otherMethodIsNotAllowedWithAllow() {
        guard case .methodNotAllowed(let allow) = router().match(Request(method: "DELETE", path: "/save")) else {
            Issue.record("expected methodNotAllowed")
            return
        }
        #expect(allow == "GET, HEAD, POST")
    }
}
