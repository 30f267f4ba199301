import Auth0Web
import Foundation
import Locking
import MetadataDemoApp
import TestSupport
import Testing
import Web

/// `POST /affirmation` through the product's pipeline with a scripted tenant: the answers the dev
/// tenant does not give (a set `Retry-After`, metadata changed elsewhere, a refused refresh token,
/// JSON nested past the limit). What it gives is `IntegrationTests.AffirmationTests`, run both
/// in-process and through nginx.
@Suite struct AffirmationRouteTests {
    let tenant = TenantScript()
    let time = ManualClock(TenantScript.now)
    let jar = CookieJar()
    let app: MetadataDemo

    init() throws {
        app = try TestServices.app(http: tenant, clock: time.clock)
    }

    /// Logs in through `/login` and `/callback` as a browser would; returns the page's CSRF token.
    @discardableResult
    private func logIn() throws -> String {
        let login = app.respond(to: Request(method: "GET", path: "/login"))
        jar.take(login)
        let location = try #require(login.header("Location"))
        let query = try FormData(urlEncoded: Array(location.split(separator: "?", maxSplits: 1)[1].utf8))
        tenant.change { $0.nonce = query["nonce"] ?? "" }
        let callback = get("/callback", query: "code=C1&state=\(query["state"] ?? "")")
        #expect(callback.status == 302)
        let page = get("/")
        return TestHTML.hiddenField("csrf", in: page) ?? ""
    }

    private func get(_ path: String, query: String = "") -> Response {
        let response = app.respond(
            to: Request(method: "GET", path: path, query: query, headers: ["cookie": jar.header(for: path)]))
        jar.take(response)
        return response
    }

    private func post(_ form: [(String, String)], origin: String = "https://demo.example.com") -> Response {
        let response = app.respond(
            to: Request(
                method: "POST", path: "/affirmation",
                headers: [
                    "cookie": jar.header(for: "/affirmation"), "content-type": "application/x-www-form-urlencoded",
                    "origin": origin,
                ], body: Array(PercentEncoding.formEncode(form).utf8)))
        jar.take(response)
        return response
    }

    @Test func refreshReadsTheMetadataAgain() throws {
        let csrf = try logIn()
        tenant.change { $0.affirmation = "Changed elsewhere" }
        let refreshed = post([("csrf", csrf), ("action", "refresh"), ("affirmation", "ignored")])
        #expect(refreshed.status == 303)
        #expect(tenant.sent.last?.method == "GET")
        let home = get("/")
        #expect(TestHTML.field(in: home) == "Changed elsewhere")
        #expect(TestHTML.text(home).contains("Affirmation refreshed."))
    }

    @Test func aRateLimitedSaveSaysWhenToTryAgainAndKeepsTheText() throws {
        let csrf = try logIn()
        tenant.change {
            $0.managementStatus = 429
            $0.managementHeaders = [("retry-after", "7")]
        }
        let answer = post([("csrf", csrf), ("action", "save"), ("affirmation", "Mine")])
        #expect(answer.status == 429)
        #expect(TestHTML.text(answer).contains("Auth0 is busy, try again in 7 seconds."))
        #expect(TestHTML.field(in: answer) == "Mine")
        #expect(jar.names.contains("__Host-mds"))  // still logged in
    }

    /// A refused refresh token ends the session: cookies cleared, off to log in, the text kept
    /// in the login transaction.
    @Test func aRefusedRefreshTokenLogsInAgainKeepingTheText() throws {
        tenant.change { $0.accessTokenSeconds = 30 }
        let csrf = try logIn()
        tenant.change {
            $0.tokenStatus = 403
            $0.tokenError = "invalid_grant"
        }
        let answer = post([("csrf", csrf), ("action", "save"), ("affirmation", "Keep me")])
        #expect(answer.status == 303)
        #expect(answer.header("Location")?.hasPrefix("https://tenant.example.com/authorize?") == true)
        #expect(!jar.names.contains("__Host-mds"))
        #expect(tenant.sent(to: "api/v2/").count == 1)  // only the fetch at login: no call with a dead token
    }

    /// Metadata nested 400 deep (a person can write their own `user_metadata` through other
    /// clients) used to overflow a serving thread's 1 MiB stack and kill the worker. Answered
    /// on a thread of that size, it is a plain error page and the person stays logged in.
    @Test func deeplyNestedMetadataFromTheTenantIsABadAnswerNotACrash() throws {
        let csrf = try logIn()
        tenant.change {
            $0.managementBody =
                #"{"user_metadata":"# + String(repeating: #"{"a":"#, count: 400) + "1"
                + String(repeating: "}", count: 400) + "}"
        }
        let request = Request(
            method: "POST", path: "/affirmation",
            headers: [
                "cookie": jar.header(for: "/affirmation"), "content-type": "application/x-www-form-urlencoded",
                "origin": "https://demo.example.com",
            ], body: Array(PercentEncoding.formEncode([("csrf", csrf), ("action", "refresh")]).utf8))
        let answer = Lock<Response?>(nil)
        let done = DispatchSemaphore(value: 0)
        let app = self.app
        let thread = Thread {
            answer.withLock { $0 = app.respond(to: request) }
            done.signal()
        }
        thread.stackSize = 1 << 20  // as the worker's serving threads
        thread.start()
        done.wait()
        let page = try #require(answer.withLock { $0 })
        #expect(page.status == 503)
        #expect(TestHTML.text(page).contains("Auth0 had a problem"))
        #expect(TestHTML.text(page).contains("You\u{2019}re logged in!"))
    }
}
