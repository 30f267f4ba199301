import Foundation
import Glibc
import TestSupport
import Testing
import Web

/// `deploy/nginx-site.conf` itself, started by a real nginx with a throwaway certificate in front
/// of two real workers: only its addresses, ports, paths and certificate are rewritten, and its
/// shipped-off parts (the second worker, the sibling app) turned on as its comments say.
@Suite(.serialized) final class ProductionSiteTests {
    let stack: Stack
    let site: ProductionNginx
    let sibling: LocalHTTPPeer
    let siblingDir = NSTemporaryDirectory() + "sibling-\(UUID().uuidString.prefix(8))"
    let staticRoot = NSTemporaryDirectory() + "static-root-\(UUID().uuidString.prefix(8))"

    init() throws {
        stack = try Stack(workers: 2)
        try FileManager.default.createDirectory(atPath: siblingDir + "/mini", withIntermediateDirectories: true)
        try "sibling\n".write(toFile: siblingDir + "/mini/index.html", atomically: true, encoding: .utf8)
        sibling = try LocalHTTPPeer(serving: siblingDir)
        // The workers' sockets under the names systemd's template units give them.
        for (instance, socket) in [("1", "metadata-demo.sock"), ("2", "metadata-demo-2.sock")] {
            try FileManager.default.createSymbolicLink(
                atPath: stack.runDir + "/\(instance).sock", withDestinationPath: stack.runDir + "/" + socket)
        }
        try Stack.check(
            Stack.binDir + "/metadata-demo", ["publish-static", staticRoot + "/static"],
            environment: ["PUBLIC_DIR": Stack.repoRoot + "/Public"])
        if getuid() == 0 { try Stack.check("/bin/chmod", ["-R", "a+rX", staticRoot, siblingDir]) }
        let text = try String(contentsOfFile: Stack.repoRoot + "/deploy/nginx-site.conf", encoding: .utf8)
        let address = "http://127.0.0.1:\(sibling.port)"
        site = try ProductionNginx(site: text, staticRoot: staticRoot, socketDirectory: stack.runDir) {
            // Two workers, as the guide's "Several workers" has it, and the sibling app turned on.
            ProductionNginx.withSiblingApp(
                $0.replacingOccurrences(
                    of: "    # server unix:/run/metadata-demo/2.sock", with: "    server unix:/run/metadata-demo/2.sock"
                ),
                at: address)
        }
    }

    deinit {
        sibling.stop()
        site.stop()
        stack.stop()
    }

    private func fetch(
        _ path: String, host: String = "demo.example.com", tls: Bool = true, method: String = "GET",
        cookie: String? = nil
    ) throws -> (status: Int, headers: [String: String], body: String, curlExit: Int32) {
        try site.fetch(path, host: host, tls: tls, method: method, cookie: cookie)
    }

    /// As shipped, the sibling app is off: `/mini/` is the worker's own 404, not a 502.
    @Test func theSiblingAppIsOffAsShipped() throws {
        let shipped = try String(contentsOfFile: Stack.repoRoot + "/deploy/nginx-site.conf", encoding: .utf8)
        #expect(!shipped.contains("\n    location /mini/"))
        #expect(shipped.contains("\n    #location /mini/ {"))
    }

    @Test func everyLocationKeepsHSTSTheSiblingAppIncluded() throws {
        let browser = TestClient()
        try browser.logIn(stack, as: DemoUser.skippy)
        let cookie = try #require(browser.cookieHeader(for: stack.baseURL + "/"))
        let fingerprinted = try #require(
            try FileManager.default.contentsOfDirectory(atPath: staticRoot + "/static").first {
                $0.hasPrefix("app.") && $0 != "app.css"
            })
        for (path, status) in [
            ("/", 200), ("/static/app.css", 200), ("/static/\(fingerprinted)", 200), ("/favicon.ico", 200),
            ("/mini/", 302),
        ] {
            let answer = try fetch(path)
            #expect(answer.status == status, "\(path)")
            #expect(answer.headers["strict-transport-security"]?.hasPrefix("max-age=63072000") == true, "\(path)")
        }
        let sibling = try fetch("/mini/", cookie: cookie)
        #expect(sibling.status == 200)
        #expect(sibling.headers["strict-transport-security"]?.hasPrefix("max-age=63072000") == true)
    }

    @Test func namesOtherThanTheSitesGetNoAnswerAndRedirectsUseTheSitesName() throws {
        let redirect = try fetch("/x?y=1", tls: false)
        #expect(redirect.status == 301)
        #expect(redirect.headers["location"] == "https://demo.example.com/x?y=1")
        #expect(try fetch("/", host: "evil.example", tls: false).curlExit == 52)  // empty reply: 444
        #expect(try fetch("/", host: "evil.example").curlExit != 0)  // TLS handshake refused
        let (_, spoofed) = try Stack.run(
            "/usr/bin/curl",
            [
                "-s", "-o", "/dev/null", "-w", "%{http_code}", "-H", "Host: evil.example",
                "http://127.0.0.1:\(site.http)/",
            ])
        #expect(spoofed == "000")
    }

    @Test func tlsFollowsMozillasIntermediateProfileWithoutSessionTickets() throws {
        let good = try Stack.run(
            "/bin/bash",
            [
                "-c",
                "echo | openssl s_client -connect 127.0.0.1:\(site.https) -servername demo.example.com -tls1_2 -cipher ECDHE-RSA-AES128-GCM-SHA256 2>&1",
            ])
        #expect(good.1.contains("Cipher is ECDHE-RSA-AES128-GCM-SHA256"), "\(good.1.suffix(400))")
        #expect(!good.1.contains("TLS session ticket:"))  // no ticket issued
        for refused in ["-tls1_2 -cipher AES128-GCM-SHA256", "-tls1_1 -cipher DEFAULT@SECLEVEL=0"] {
            let answer = try Stack.run(
                "/bin/bash",
                [
                    "-c",
                    "echo | openssl s_client -connect 127.0.0.1:\(site.https) -servername demo.example.com \(refused) 2>&1",
                ])
            #expect(!answer.1.contains("Cipher is") || answer.1.contains("Cipher is (NONE)"), "\(refused)")
        }
    }

    @Test func callsThatReachAuth0AreRateLimited() throws {
        let statuses = try (0..<20).map { _ in try fetch("/logout", method: "POST").status }
        #expect(statuses.contains(429), "\(statuses)")
    }

    /// `count` requests over one kept connection, as fast as curl sends them: their statuses.
    private func burst(_ path: String, _ count: Int, method: String = "GET") throws -> [Int] {
        let url = "https://demo.example.com:\(site.https)\(path)"
        var arguments = ["-s", "-k", "--resolve", "demo.example.com:\(site.https):127.0.0.1", "-X", method]
        if method == "POST" { arguments += ["-d", "logout_token=x"] }
        arguments += Array(repeating: ["-o", "/dev/null", "-w", "%{http_code}\\n", url], count: count).flatMap { $0 }
        return try Stack.run("/usr/bin/curl", arguments).output.split(separator: "\n").compactMap { Int($0) }
    }

    /// Review 2, items 2 and 9: page views and back-channel logouts have limits of their own.
    @Test func pageViewsAndBackChannelLogoutsAreRateLimited() throws {
        let pages = try burst("/logged-out", 80)
        #expect(pages.count == 80 && pages.contains(429) && pages.prefix(40).allSatisfy { $0 == 200 }, "\(pages)")
        let logouts = try burst("/backchannel-logout", 100, method: "POST")
        #expect(
            logouts.count == 100 && logouts.contains(429) && logouts.prefix(50).allSatisfy { $0 == 400 }, "\(logouts)")
    }

    /// Metrics are not on the public site, and the loopback listener gives each worker its own
    /// address: every scrape of one reads that worker's counters (through the upstream, scrapes
    /// alternated between workers and counters seemed to reset), and together they count every
    /// request once.
    @Test func metricsPerWorkerOnlyOnTheLoopbackListener() throws {
        #expect(try fetch("/metrics").status == 404)
        #expect(try fetch("/metrics/1").status == 404)
        let requests = 40
        for _ in 0..<requests { #expect(try fetch("/healthz").status == 200) }
        func healthz(_ worker: String) throws -> Double {
            let text = try site.metrics(worker: worker)
            #expect(text.contains("metadata_demo_logins_total"), "\(text.prefix(300))")
            return text.split(separator: "\n").filter { $0.hasPrefix("metadata_demo_requests_total{") }
                .filter { $0.contains("route=\"/healthz\"") && $0.contains("status=\"200\"") }
                .compactMap { $0.split(separator: " ").last.flatMap { Double($0) } }.reduce(0, +)
        }
        let first = try healthz("1")
        let second = try healthz("2")
        #expect(first + second == Double(requests))
        #expect(first > 0 && second > 0, "nginx spreads requests over both workers: \(first), \(second)")
        for _ in 0..<3 {
            #expect(try healthz("1") == first)
            #expect(try healthz("2") == second)
        }
        // A name that is not a worker's socket, or not a name at all, reaches nothing.
        let (_, missing) = try Stack.run(
            "/usr/bin/curl",
            ["-s", "-o", "/dev/null", "-w", "%{http_code}", "http://127.0.0.1:\(site.metrics)/metrics/9"])
        #expect(missing == "502")
        let (_, traversal) = try Stack.run(
            "/usr/bin/curl",
            ["-s", "-o", "/dev/null", "-w", "%{http_code}", "http://127.0.0.1:\(site.metrics)/metrics/..%2Fx"])
        #expect(traversal == "404")
    }

    @Test func staticFilesAreTheCurrentOnesWithTheirRightTypes() throws {
        let favicon = try fetch("/favicon.ico")
        #expect(favicon.headers["content-type"] == "image/svg+xml")
        #expect(try fetch("/static/dev-tenant/tenant.css").status == 404)
        #expect(try fetch("/static/app.000000000000.css").status == 404)
        let current = try #require(
            try FileManager.default.contentsOfDirectory(atPath: staticRoot + "/static").first {
                $0.hasPrefix("app.") && $0 != "app.css"
            })
        let answer = try fetch("/static/\(current)")
        #expect(answer.status == 200)
        #expect(answer.headers["cache-control"] == "public, max-age=31536000, immutable")
    }

    /// nginx's access log and the worker's log lines carry the same request id, so one request
    /// can be followed from one to the other (also for the single sign-on check).
    @Test func theAccessLogAndTheWorkerShareTheRequestID() throws {
        #expect(try fetch("/logged-out").status == 200)
        // nginx writes the access log after the answer has left, so the line may come a moment later.
        var found: Substring?
        _ = eventually(within: 2.5, every: 0.05) {
            let access = (try? String(contentsOfFile: site.dir + "/metadata-demo.access.log", encoding: .utf8)) ?? ""
            found = access.split(separator: "\n").last { $0.contains("GET /logged-out ") }
            return found != nil
        }
        let line = try #require(found, "no access log line for the request")
        let id = try #require(line.split(separator: " ").first { $0.hasPrefix("id=") }).dropFirst(3)
        #expect(id.count == 32 && id.allSatisfy(\.isHexDigit), "\(line)")
        let workers = try stack.log("worker") + stack.log("worker-2")
        #expect(workers.contains("id=\(id)"), "no worker line with id=\(id)")
    }
}
