import Foundation
import Glibc
import TestSupport
import Testing
import Web

/// What the routes a visitor reaches without logging in let one anonymous request make the
/// worker write or spend, held to their bounds through nginx and the real worker, its SQLite
/// ledger and its log: a made-up front-channel logout writes nothing to the ledger; a refused
/// front- or back-channel logout and a check for an app the mini-apps file does not name cost the
/// log at most one warning a minute each, however many arrive; a forged logout token of any size
/// is refused before its claims are read, and a body past the logout token's limit before it is
/// parsed; a probe (`/healthz`, `/metrics`) reads no cookie, so whatever it carries it costs one
/// line and one counter and is answered with no cookie.
@Suite(.serialized) final class AnonymousRequestBoundsTests {
    let stack: Stack

    init() throws {
        stack = try Stack(workers: 0)
        try stack.startWorker(extra: ["FRONTCHANNEL_LOGOUT": "on"])
    }
    deinit { stack.stop() }

    @Test func anonymousRequestsWriteNothingToTheLedgerAndALineAMinuteToTheLog() throws {
        let visitor = TestClient()
        let issuer = PercentEncoding.encode(stack.tenantURL + "/")
        let rounds = 25
        for round in 0..<rounds {
            // A made-up provider session, then a wrong issuer: nothing to end, nothing written.
            let madeUp = try visitor.get(
                stack.baseURL + "/frontchannel-logout?iss=\(issuer)&sid=made-up-\(round)-"
                    + String(repeating: "s", count: 200))
            #expect(madeUp.status == 200)
            let wrong = try visitor.get(stack.baseURL + "/frontchannel-logout?iss=https%3A%2F%2Fevil.example%2F&sid=x")
            #expect(wrong.status == 200)
            // A forged logout token far past the limit: refused before the form is read.
            let forged = try visitor.post(
                stack.baseURL + "/backchannel-logout",
                form: [("logout_token", "eyJhbGciOiJSUzI1NiJ9." + String(repeating: "e30", count: 12_000) + ".c2ln")])
            #expect(forged.status == 400)
        }
        // A check for an app nobody set up, as nginx asks it on the worker's socket.
        let fd = try #require(Stack.connect(unixSocket: stack.workerSocket(1)))
        defer { close(fd) }
        var worker = FastCGITestClient(socket: fd)
        for _ in 0..<rounds {
            #expect(try worker.get("/auth/check/nobody-set-me-up").hasPrefix("Status: 403"))
        }

        #expect(try stack.metric("metadata_demo_session_ledger_entries") == 0)
        #expect(try stack.metric("metadata_demo_session_ledger_bytes") == 0)
        #expect(try stack.metric("metadata_demo_frontchannel_logouts_total") == Double(2 * rounds))
        let log = try stack.log("worker")
        for warning in [
            "front-channel logout refused", "back-channel logout refused",
            "mini app check for an app the mini-apps file does not name",
        ] {
            let lines = log.split(separator: "\n").filter { $0.contains("msg=\"\(warning)\"") }
            #expect(lines.count == 1, "\(warning): \(lines.count) lines for \(rounds) requests")
            #expect(lines.first?.contains("count=1") == true, "the first is said at once: \(lines)")
        }
    }

    @Test func aProbeWritesItsOwnLineAndCounterAndNoCookieWhateverItCarries() throws {
        // Cookies that would each be cleared on a page (a tampered session, a flash, a session
        // the size of a full header): a probe never reads them.
        let carried = "mds=" + String(repeating: "A", count: 3000) + "; mds.1=tampered; mdf=tampered; lang=zh"
        let visitor = TestClient()
        let probes = {
            try Self.series(of: "/healthz", in: self.scrape()).compactMap {
                $0.split(separator: " ").last.flatMap { Double($0) }
            }.reduce(0, +)
        }
        let lines = { (try? self.stack.log("worker"))?.split(separator: "\n") ?? [] }
        let probedBefore = try probes()
        let linesBefore = lines().filter { $0.contains(" route=/healthz ") }.count
        let alarmsBefore = lines().filter(Self.isAlarm).count
        let rounds = 40
        for round in 0..<rounds {
            let probe = try visitor.get(stack.baseURL + "/healthz?round=\(round)", headers: [("Cookie", carried)])
            #expect(probe.status == 200 && probe.body == "ok\n")
            #expect(probe.headers("set-cookie").isEmpty, "\(probe.headers("set-cookie"))")
        }
        let scraped = try visitor.get(stack.baseURL + "/metrics", headers: [("Cookie", carried)])
        #expect(scraped.status == 200 && scraped.headers("set-cookie").isEmpty)

        // One series for all of them, whatever their queries (the label is the route's path),
        // counting each once; nothing in the ledger.
        let series = try Self.series(of: "/healthz", in: scrape())
        #expect(series.count == 1, "\(series)")
        let probedAfter = try probes()
        #expect(probedAfter - probedBefore == Double(rounds), "\(probedAfter) after \(probedBefore)")
        #expect(try stack.metric("metadata_demo_session_ledger_entries") == 0)
        // Each probe's own line at `info`, and no warning or error.
        let logged = eventually { lines().filter { $0.contains(" route=/healthz ") }.count - linesBefore == rounds }
        #expect(logged, "\(lines().filter { $0.contains(" route=/healthz ") }.count - linesBefore) lines for \(rounds)")
        let alarms = lines().filter(Self.isAlarm)
        #expect(alarms.count == alarmsBefore, "\(alarms)")
    }

    /// The worker's `/metrics`, through nginx from loopback.
    /// The routes that borrow the session (`GET /`, the single sign-on check) with a session
    /// cookie that does not open: each is a visitor. The page clears the cookie and the check
    /// sends the visitor to log in; neither writes to the ledger, signs an assertion or says more
    /// than its own line in the log, however many arrive.
    @Test func aBorrowedSessionThatDoesNotOpenIsAVisitorAndWritesNothing() throws {
        let tampered = "mds=" + String(repeating: "A", count: 3000)
        let visitor = TestClient()
        let lines = { (try? self.stack.log("worker"))?.split(separator: "\n") ?? [] }
        let alarmsBefore = lines().filter(Self.isAlarm).count
        let fd = try #require(Stack.connect(unixSocket: stack.workerSocket(1)))
        defer { close(fd) }
        var worker = FastCGITestClient(socket: fd)
        let rounds = 30
        for _ in 0..<rounds {
            let page = try visitor.get(stack.baseURL + "/", headers: [("Cookie", tampered)])
            #expect(page.status == 200)
            #expect(
                page.headers("set-cookie").contains { $0.hasPrefix("mds=") && $0.contains("Max-Age=0") },
                "\(page.headers("set-cookie"))")
            let check = try worker.get("/auth/check", headers: [("Cookie", tampered)])
            #expect(check.hasPrefix("Status: 401"), "\(check.prefix(200))")
            #expect(check.contains("X-Auth-Login: /login?"))
            #expect(!check.contains("X-Auth-Assertion"))
        }
        #expect(try stack.metric("metadata_demo_session_ledger_entries") == 0)
        #expect(try stack.metric("metadata_demo_session_ledger_bytes") == 0)
        #expect(lines().filter(Self.isAlarm).count == alarmsBefore, "\(lines().filter(Self.isAlarm))")
    }

    private func scrape() throws -> String { try TestClient().get(stack.baseURL + "/metrics").body }

    /// The request counter's samples for `route`, whatever their status.
    private static func series(of route: String, in metrics: String) -> [Substring] {
        metrics.split(separator: "\n").filter {
            $0.hasPrefix("metadata_demo_requests_total{") && $0.contains("route=\"\(route)\"")
        }
    }

    private static func isAlarm(_ line: Substring) -> Bool {
        line.hasPrefix("level=warning") || line.hasPrefix("level=error")
    }
}
