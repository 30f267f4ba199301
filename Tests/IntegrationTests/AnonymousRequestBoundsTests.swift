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
/// parsed.
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
}
