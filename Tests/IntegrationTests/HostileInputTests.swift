import Auth0Web
import Foundation
import Testing
import Web

/// Bad and hostile input through nginx and the real worker: each gets a clear answer, nothing
/// crashes, and the worker keeps serving.
@Suite(.serialized) final class HostileInputTests {
    let stack: Stack
    /// A logged-in person's cookies and CSRF token, to tamper with.
    let session: String
    let accessToken: String
    let csrf: String

    init() throws {
        stack = try Stack()
        let browser = TestClient()
        try browser.logIn(stack, as: DemoUser.random)
        session = try #require(browser.cookies["mds"])
        accessToken = try #require(browser.cookies["mda"])
        csrf = try #require(TestClient.hiddenField("csrf", in: try browser.get(stack.baseURL + "/").body))
    }
    deinit { stack.stop() }

    struct Case: CustomStringConvertible, Sendable {
        let description: String
        let method: String
        let path: String
        let headers: [(name: String, value: String)]
        let body: String
        let status: Int
        let shows: String
        /// Where a redirect must lead (a prefix of its `Location`).
        var leadsTo: String? = nil
    }

    /// A cookie sealed for the right name with a key this site does not have.
    private func foreignCookie() throws -> String {
        let sealer = try CookieSealer(secrets: [String(repeating: "z", count: 32)], purpose: "session", clock: .system)
        return try sealer.seal(Array("anything".utf8), name: "mds", lifetime: 3600)
    }

    private var cases: [Case] {
        get throws {
            // One character changed: still base64url, no longer what was sealed.
            func tampered(_ value: String) -> String {
                var bytes = Array(value.utf8)
                bytes[10] = bytes[10] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
                return String(decoding: bytes, as: UTF8.self)
            }
            let loggedOut = "Metadata demo"
            let form = [("Content-Type", "application/x-www-form-urlencoded"), ("Origin", stack.baseURL)]
            return [
                Case(
                    description: "tampered session cookie", method: "GET", path: "/",
                    headers: [("Cookie", "mds=" + tampered(session))], body: "", status: 200,
                    shows: loggedOut),
                Case(
                    description: "truncated session cookie", method: "GET", path: "/",
                    headers: [("Cookie", "mds=" + session.prefix(session.count / 2))], body: "", status: 200,
                    shows: loggedOut),
                Case(
                    description: "oversized junk cookie", method: "GET", path: "/",
                    headers: [("Cookie", "mds=" + String(repeating: "A", count: 12_000))], body: "", status: 200,
                    shows: loggedOut),
                Case(
                    description: "duplicated session cookie", method: "GET", path: "/",
                    headers: [("Cookie", "mds=\(session); mds=\(session)")], body: "", status: 200, shows: loggedOut),
                Case(
                    description: "cookie sealed with a foreign key", method: "GET", path: "/",
                    headers: [("Cookie", "mds=" + (try foreignCookie()))], body: "", status: 200, shows: loggedOut),
                Case(
                    description: "valid session still works", method: "GET", path: "/",
                    headers: [("Cookie", "mds=" + session)], body: "", status: 200, shows: "You’re logged in!"),
                Case(
                    description: "tampered access-token cookie on a refresh (renewed instead)", method: "POST",
                    path: "/affirmation",
                    headers: form + [
                        ("Cookie", "mds=\(session); mda=" + tampered(accessToken))
                    ],
                    body: "csrf=\(csrf)&action=refresh", status: 303, shows: "", leadsTo: "/"),
                Case(
                    description: "session cookie under the access token's name", method: "POST", path: "/affirmation",
                    headers: form + [("Cookie", "mda=" + session)], body: "csrf=\(csrf)&action=refresh", status: 303,
                    shows: "", leadsTo: stack.tenantURL + "/authorize?"),
                Case(
                    description: "access token sent to a page", method: "GET", path: "/",
                    headers: [("Cookie", "mda=" + accessToken)], body: "", status: 200, shows: loggedOut),
                Case(
                    description: "callback without a transaction cookie", method: "GET",
                    path: "/callback?code=x&state=abc", headers: [], body: "", status: 400, shows: "Login expired"),
                Case(
                    description: "transaction cookie for another state", method: "GET",
                    path: "/callback?code=x&state=abc", headers: [("Cookie", "mdtx.other=" + session)], body: "",
                    status: 400, shows: "Login expired"),
                Case(
                    description: "transaction cookie that is garbage", method: "GET",
                    path: "/callback?code=x&state=abc", headers: [("Cookie", "mdtx.abc=garbage")], body: "",
                    status: 400, shows: "Login expired"),
                Case(
                    description: "tenant error without state", method: "GET", path: "/callback?error=access_denied",
                    headers: [], body: "", status: 400, shows: "Login expired"),
                Case(
                    description: "POST without CSRF token", method: "POST", path: "/affirmation",
                    headers: form + [("Cookie", "mds=" + session)], body: "affirmation=x&action=save", status: 403,
                    shows: "not sent from this site"),
                Case(
                    description: "POST with a wrong CSRF token", method: "POST", path: "/affirmation",
                    headers: form + [("Cookie", "mds=" + session)], body: "csrf=wrong&affirmation=x&action=save",
                    status: 403, shows: "not sent from this site"),
                Case(
                    description: "POST from another origin", method: "POST", path: "/affirmation",
                    headers: [
                        ("Content-Type", "application/x-www-form-urlencoded"), ("Origin", "https://evil.example"),
                        ("Cookie", "mds=" + session),
                    ], body: "csrf=\(csrf)&affirmation=x&action=save", status: 403, shows: "not sent from this site"),
                Case(
                    description: "POST marked cross-site", method: "POST", path: "/logout",
                    headers: [
                        ("Content-Type", "application/x-www-form-urlencoded"), ("Sec-Fetch-Site", "cross-site"),
                        ("Cookie", "mds=" + session),
                    ], body: "csrf=\(csrf)", status: 403, shows: "not sent from this site"),
                Case(
                    description: "POST with a JSON body", method: "POST", path: "/affirmation",
                    headers: [
                        ("Content-Type", "application/json"), ("Origin", stack.baseURL), ("Cookie", "mds=" + session),
                    ], body: "{}", status: 415, shows: "format this site does not accept"),
                Case(
                    description: "malformed percent-encoding in a form", method: "POST", path: "/affirmation",
                    headers: form + [("Cookie", "mds=" + session)], body: "csrf=\(csrf)&affirmation=%E0%A4%A",
                    status: 400, shows: "could not be understood"),
                Case(
                    description: "invalid UTF-8 in a form", method: "POST", path: "/affirmation",
                    headers: form + [("Cookie", "mds=" + session)], body: "csrf=\(csrf)&affirmation=%C3%28",
                    status: 400, shows: "not UTF-8"),
                Case(
                    description: "NUL byte in a form", method: "POST", path: "/affirmation",
                    headers: form + [("Cookie", "mds=" + session)], body: "csrf=\(csrf)&affirmation=a%00b", status: 400,
                    shows: "NUL"),
                Case(
                    description: "malformed query", method: "GET", path: "/login?returnTo=%%", headers: [], body: "",
                    status: 400, shows: "could not be understood"),
                Case(
                    description: "returnTo to another site", method: "GET", path: "/login?returnTo=%2F%2Fevil.example",
                    headers: [], body: "", status: 302, shows: ""),
                Case(
                    description: "wrong method on a page", method: "DELETE", path: "/", headers: [], body: "",
                    status: 405, shows: "cannot be used that way"),
                Case(
                    description: "GET on a form target", method: "GET", path: "/affirmation", headers: [], body: "",
                    status: 405, shows: "cannot be used that way"),
                Case(
                    description: "unknown path", method: "GET", path: "/../../etc/passwd", headers: [], body: "",
                    status: 404, shows: "Page not found"),
                Case(
                    description: "huge body", method: "POST", path: "/affirmation", headers: form,
                    body: String(repeating: "a", count: 200_000), status: 413, shows: "too large"),
                Case(
                    description: "huge header", method: "GET", path: "/",
                    headers: [("X-Junk", String(repeating: "h", count: 40_000))], body: "", status: 400, shows: ""),
            ]
        }
    }

    @Test func everyHostileRequestGetsItsClearAnswer() throws {
        let client = TestClient()
        for item in try cases {
            let answer = try client.send(
                item.method, stack.baseURL + item.path, headers: item.headers, body: Array(item.body.utf8))
            #expect(answer.status == item.status, "\(item)")
            if !item.shows.isEmpty { #expect(answer.body.contains(item.shows), "\(item): \(answer.body.prefix(300))") }
            if let leadsTo = item.leadsTo {
                #expect(
                    answer.header("location")?.hasPrefix(leadsTo) == true, "\(item): \(answer.header("location") ?? "")"
                )
            }
            if item.description == "returnTo to another site" {
                let location = answer.header("location") ?? ""
                #expect(!location.contains("evil.example"), "\(location)")
            }
        }
        // Nothing above crashed the worker: the process the stack started is still the one serving.
        #expect(try client.get(stack.baseURL + "/healthz").status == 200)
        #expect(stack.isRunning("worker"))
    }

    /// Review 3, item 5: a page of the same site planted 500 cookie names like the session's and
    /// the login's (`mds.*`, `mdtx.*`); each answer cleared every one of them, and nginx refused
    /// heads that long ("upstream sent too big header": 502 at /, /login and /callback), so that
    /// browser could not log in. Now it logs in, and no answer clears more than a few.
    @Test func aBrowserWithPlantedCookieNamesStillLogsIn() throws {
        let browser = TestClient()
        for index in 0..<500 {
            browser.setCookie("mds.p\(index)", "1")
            browser.setCookie("mdtx.p\(index)", "1")
        }
        #expect(try browser.get(stack.baseURL + "/").status == 200)
        let landed = try browser.logIn(stack, as: DemoUser.skippy)
        #expect(landed.status == 303 || landed.status == 302, "the callback answered \(landed.status)")
        let home = try browser.get(stack.baseURL + "/")
        #expect(home.status == 200 && home.body.contains("You’re logged in!"))
        #expect(home.headers("set-cookie").count <= 10)
    }

    /// Review 3, smaller: behind make run's nginx a body of 65-600 KB sometimes got its 413 only
    /// after 15 s, or a 502. Every one gets the worker's 413 page, at once.
    @Test func bodiesOverTheLimitGetTheirPageAtOnce() throws {
        let client = TestClient()
        let form = [("Content-Type", "application/x-www-form-urlencoded"), ("Origin", stack.baseURL)]
        for size in [66_000, 70_000, 100_000, 150_000, 250_000, 400_000, 600_000, 900_000] {
            for _ in 0..<3 {
                let began = Date()
                let answer = try client.send(
                    "POST", stack.baseURL + "/affirmation", headers: form, body: Array(repeating: 97, count: size))
                let seconds = Date().timeIntervalSince(began)
                #expect(answer.status == 413 && answer.body.contains("too large"), "\(size) bytes: \(answer.status)")
                #expect(seconds < 5, "\(size) bytes: answered after \(seconds) s")
            }
        }
    }

    @Test func logsHoldNoTokensCodesOrCookies() throws {
        let browser = TestClient()
        try browser.logIn(stack, as: DemoUser.skippy)
        let log = try stack.log("worker")
        // The log holds the login (a missing or empty log would pass every absence below).
        #expect(log.contains("route=/callback") && log.contains("route=/login"), "\(log.suffix(600))")
        #expect(!browser.cookies.isEmpty)
        #expect(!log.contains(session))
        #expect(!log.contains("code="))
        for value in browser.cookies.values where value.count > 20 { #expect(!log.contains(value)) }
        #expect(!log.contains("eyJ"))  // no JWT
    }
}
