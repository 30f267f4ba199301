import Foundation
import Testing

/// The production site's edge, against Debian's nginx 1.22 with no worker behind it: the TLS
/// handshake as a browser meets it (under a minimal nginx.conf and under Debian's stock one) and
/// what one address can hold (review 2, items 5 and 6).
@Suite(.serialized) struct ProductionSiteEdgeTests {
    private static func start(_ main: ProductionNginx.MainConfig) throws -> ProductionNginx {
        let empty = NSTemporaryDirectory() + "edge-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: empty + "/static", withIntermediateDirectories: true)
        let text = try String(contentsOfFile: Stack.repoRoot + "/deploy/nginx-site.conf", encoding: .utf8)
        return try ProductionNginx(site: text, staticRoot: empty, socketDirectory: empty, main: main)
    }

    private static func sClient(_ site: ProductionNginx, _ options: String) throws -> String {
        try Stack.run(
            "/bin/bash",
            [
                "-c",
                "echo | openssl s_client -connect 127.0.0.1:\(site.https) -servername demo.example.com \(options) 2>&1",
            ]
        ).output
    }

    /// nginx 1.22 took the protocols and the session cache from the default server (the 444
    /// one), which set neither: no TLS 1.3 under a minimal nginx.conf, no resumption under either.
    @Test(arguments: [ProductionNginx.MainConfig.minimal, .debianStock])
    func tls13IsOfferedAndATLS12SessionIsResumed(_ main: ProductionNginx.MainConfig) throws {
        let site = try Self.start(main)
        defer { site.stop() }
        let modern = try Self.sClient(site, "-tls1_3")
        #expect(modern.contains("New, TLSv1.3"), "\(main): \(modern.suffix(600))")
        let saved = site.dir + "/tls12.session"
        let first = try Self.sClient(site, "-tls1_2 -sess_out \(saved)")
        #expect(first.contains("New, TLSv1.2"), "\(main): \(first.suffix(600))")
        let again = try Self.sClient(site, "-tls1_2 -sess_in \(saved)")
        #expect(again.contains("Reused, TLSv1.2"), "\(main): \(again.suffix(600))")
        for old in ["-tls1_1 -cipher DEFAULT@SECLEVEL=0", "-tls1 -cipher DEFAULT@SECLEVEL=0"] {
            let refused = try Self.sClient(site, old)
            #expect(!refused.contains("Cipher is") || refused.contains("Cipher is (NONE)"), "\(main) \(old)")
        }
    }

    /// Review 3, smaller: under Debian's nginx.conf (`gzip on` for text/html) the worker's pages,
    /// which carry a CSRF token and echo what a request sent, went out compressed: what BREACH
    /// reads secrets from. The site turns compression off.
    @Test func pagesAreNotCompressedUnderDebiansNginxConf() throws {
        let stack = try Stack()
        defer { stack.stop() }
        try FileManager.default.createSymbolicLink(
            atPath: stack.runDir + "/1.sock", withDestinationPath: stack.runDir + "/metadata-demo.sock")
        let empty = NSTemporaryDirectory() + "edge-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: empty + "/static", withIntermediateDirectories: true)
        let text = try String(contentsOfFile: Stack.repoRoot + "/deploy/nginx-site.conf", encoding: .utf8)
        let site = try ProductionNginx(
            site: text, staticRoot: empty, socketDirectory: stack.runDir, main: .debianStock)
        defer { site.stop() }
        for path in ["/", "/logged-out?returnTo=%2Fsomething-echoed"] {
            let page = try site.fetch(path, headers: ["Accept-Encoding: gzip, deflate, br"])
            #expect(page.status == 200, "\(path): \(page.status)")
            #expect(page.headers["content-type"]?.hasPrefix("text/html") == true)
            #expect(page.headers["content-encoding"] == nil, "\(path): \(page.headers)")
        }
    }

    /// 1,100 slow connections from one address took the site down. Now at most 50 requests in
    /// progress per address (the 51st is 429 at once), and a head or body that stalls is cut
    /// after 10 s, not 60.
    @Test func oneAddressHoldsAtMostFiftyRequestsAndSlowOnesAreCutAfterTenSeconds() throws {
        let site = try Self.start(.minimal)
        defer { site.stop() }
        let script = """
            import socket, ssl, sys, time
            port = int(sys.argv[1])
            context = ssl.create_default_context()
            context.check_hostname = False
            context.verify_mode = ssl.CERT_NONE
            def open_tls():
                raw = socket.create_connection(("127.0.0.1", port), timeout=30)
                return context.wrap_socket(raw, server_hostname="demo.example.com")
            def status(conn):
                data = conn.recv(4096)
                return data.split(b" ")[1].decode() if data.startswith(b"HTTP/") else "closed"
            held = []
            for _ in range(50):
                conn = open_tls()
                conn.sendall(b"POST /backchannel-logout HTTP/1.1\\r\\nHost: demo.example.com\\r\\nContent-Length: 1000\\r\\n\\r\\n")
                held.append(conn)
            time.sleep(0.5)
            extra = open_tls()
            extra.sendall(b"GET /logged-out HTTP/1.1\\r\\nHost: demo.example.com\\r\\nConnection: close\\r\\n\\r\\n")
            print("extra", status(extra))
            slow = open_tls()
            slow.sendall(b"GET / HTTP/1.1\\r\\nHost: demo")
            began = time.time()
            for conn in held:
                print("held", status(conn))
            try:
                print("slow-head", status(slow))
            except (ConnectionError, ssl.SSLError):
                print("slow-head closed")
            print("seconds %.1f" % (time.time() - began))
            """
        let output = try Stack.check("/usr/bin/python3", ["-c", script, String(site.https)])
        let lines = output.split(separator: "\n").map(String.init)
        #expect(lines.contains("extra 429"), "\(output.prefix(800))")
        // A body that never came: 408 (or the connection closed), after client_body_timeout.
        let held = lines.filter { $0.hasPrefix("held ") }
        #expect(held.count == 50 && held.allSatisfy { $0 == "held 408" || $0 == "held closed" }, "\(held)")
        #expect(lines.contains { $0.hasPrefix("slow-head") })
        let seconds = try #require(lines.first { $0.hasPrefix("seconds ") }.flatMap { Double($0.dropFirst(8)) })
        #expect(seconds < 15, "slow requests were cut after \(seconds) s")
    }
}
