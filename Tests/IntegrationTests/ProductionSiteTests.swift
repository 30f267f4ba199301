import Foundation
import Glibc
import Testing
import Web

/// `deploy/nginx-site.conf` itself, started by a real nginx with a throwaway certificate in front
/// of the real worker: only its addresses, ports, paths and certificate are rewritten.
@Suite(.serialized) final class ProductionSiteTests {
    let stack: Stack
    let dir = NSTemporaryDirectory() + "prod-site-\(UUID().uuidString.prefix(8))"
    let http: Int
    let https: Int
    let metrics: Int
    let sibling: LocalHTTPPeer
    private var processes: [Process] = []

    init() throws {
        stack = try Stack()
        (http, https, metrics) = (try Stack.freePort(), try Stack.freePort(), try Stack.freePort())
        try FileManager.default.createDirectory(atPath: dir + "/mini", withIntermediateDirectories: true)
        try "sibling\n".write(toFile: dir + "/mini/index.html", atomically: true, encoding: .utf8)
        sibling = try LocalHTTPPeer(serving: dir)
        try Self.run(
            "/usr/bin/openssl",
            [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=demo.example.com",
                "-addext", "subjectAltName=DNS:demo.example.com", "-keyout", dir + "/privkey.pem", "-out",
                dir + "/fullchain.pem",
            ])
        try Self.run(
            Stack.binDir + "/metadata-demo", ["publish-static", dir + "/static"],
            ["PUBLIC_DIR": Stack.repoRoot + "/Public"])
        var site = try String(contentsOfFile: Stack.repoRoot + "/deploy/nginx-site.conf", encoding: .utf8)
        for (from, to) in [
            ("/etc/ssl/metadata-demo", dir), ("/srv/metadata-demo", dir),
            ("unix:/run/metadata-demo/metadata-demo.sock", "unix:\(stack.runDir)/metadata-demo.sock"),
            ("listen 80", "listen 127.0.0.1:\(http)"), ("listen 443", "listen 127.0.0.1:\(https)"),
            ("127.0.0.1:9145", "127.0.0.1:\(metrics)"), ("http://127.0.0.1:9100", "http://127.0.0.1:\(sibling.port)"),
        ] {
            #expect(site.contains(from), "the site no longer has \(from)")
            site = site.replacingOccurrences(of: from, with: to)
        }
        site = site.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.contains("[::]") }
            .joined(separator: "\n")
        try site.write(toFile: dir + "/site.conf", atomically: true, encoding: .utf8)
        let main = """
            \(getuid() == 0 ? "user www-data www-data;" : "")
            pid \(dir)/nginx.pid;
            error_log \(dir)/error.log;
            events {}
            http {
                include /etc/nginx/mime.types;
                access_log off;
                client_body_temp_path \(dir)/body; fastcgi_temp_path \(dir)/fcgi; proxy_temp_path \(dir)/proxy;
                uwsgi_temp_path \(dir)/uwsgi; scgi_temp_path \(dir)/scgi;
                include \(dir)/site.conf;
            }
            """
        try main.write(toFile: dir + "/nginx.conf", atomically: true, encoding: .utf8)
        if getuid() == 0 { try Self.run("/bin/chmod", ["-R", "a+rX", dir + "/static", dir + "/mini"]) }
        processes.append(
            try Self.start("/usr/sbin/nginx", ["-p", dir, "-c", dir + "/nginx.conf", "-g", "daemon off;"]))
        for port in [http, https, metrics] {
            for _ in 0..<200 {
                if let fd = Stack.connect(tcpPort: port) {
                    close(fd)
                    break
                }
                usleep(25_000)
            }
        }
    }

    deinit {
        // nginx stops its workers on TERM; its exit is polled, not awaited (Foundation's
        // waitUntilExit can miss a child's end).
        sibling.stop()
        for process in processes { kill(process.processIdentifier, SIGTERM) }
        for process in processes {
            for _ in 0..<200 where process.isRunning { usleep(25_000) }
        }
        stack.stop()
    }

    /// One answer of the site over https (or http), as curl sees it: status and headers.
    private func fetch(
        _ path: String, host: String = "demo.example.com", tls: Bool = true, method: String = "GET",
        cookie: String? = nil
    ) throws -> (status: Int, headers: [String: String], curlExit: Int32) {
        let port = tls ? https : http
        var arguments = [
            "-s", "-k", "-o", "/dev/null", "-D", "-", "-X", method, "--resolve", "\(host):\(port):127.0.0.1",
            "\(tls ? "https" : "http")://\(host):\(port)\(path)",
        ]
        if let cookie { arguments += ["-H", "Cookie: \(cookie)"] }
        if method == "POST" { arguments += ["-H", "Origin: https://demo.example.com", "--data", "csrf=x"] }
        let (status, output) = try Self.output("/usr/bin/curl", arguments)
        var headers: [String: String] = [:]
        var code = 0
        for line in output.split(separator: "\r\n") {
            if line.hasPrefix("HTTP/") { code = Int(line.split(separator: " ")[1]) ?? 0 }
            if let colon = line.firstIndex(of: ":") {
                headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                    in: .whitespaces)
            }
        }
        return (code, headers, status)
    }

    @Test func everyLocationKeepsHSTSTheSiblingAppIncluded() throws {
        let browser = TestClient()
        try browser.logIn(stack, as: DemoUser.skippy)
        let cookie = try #require(browser.cookieHeader(for: stack.baseURL + "/"))
        let fingerprinted = try #require(
            try FileManager.default.contentsOfDirectory(atPath: dir + "/static").first {
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
        let (_, spoofed) = try Self.output(
            "/usr/bin/curl",
            ["-s", "-o", "/dev/null", "-w", "%{http_code}", "-H", "Host: evil.example", "http://127.0.0.1:\(http)/"])
        #expect(spoofed == "000")
    }

    @Test func tlsFollowsMozillasIntermediateProfileWithoutSessionTickets() throws {
        let good = try Self.output(
            "/bin/bash",
            [
                "-c",
                "echo | openssl s_client -connect 127.0.0.1:\(https) -servername demo.example.com -tls1_2 -cipher ECDHE-RSA-AES128-GCM-SHA256 2>&1",
            ])
        #expect(good.1.contains("Cipher is ECDHE-RSA-AES128-GCM-SHA256"), "\(good.1.suffix(400))")
        #expect(!good.1.contains("TLS session ticket:"))  // no ticket issued
        for refused in ["-tls1_2 -cipher AES128-GCM-SHA256", "-tls1_1 -cipher DEFAULT@SECLEVEL=0"] {
            let answer = try Self.output(
                "/bin/bash",
                [
                    "-c",
                    "echo | openssl s_client -connect 127.0.0.1:\(https) -servername demo.example.com \(refused) 2>&1",
                ])
            #expect(!answer.1.contains("Cipher is") || answer.1.contains("Cipher is (NONE)"), "\(refused)")
        }
    }

    @Test func callsThatReachAuth0AreRateLimited() throws {
        let statuses = try (0..<20).map { _ in try fetch("/logout", method: "POST").status }
        #expect(statuses.contains(429), "\(statuses)")
    }

    @Test func metricsOnlyOnTheLoopbackListener() throws {
        #expect(try fetch("/metrics").status == 404)
        let (_, body) = try Self.output("/usr/bin/curl", ["-s", "http://127.0.0.1:\(metrics)/metrics"])
        #expect(body.contains("metadata_demo_logins_total"))
    }

    @Test func staticFilesAreTheCurrentOnesWithTheirRightTypes() throws {
        let favicon = try fetch("/favicon.ico")
        #expect(favicon.headers["content-type"] == "image/svg+xml")
        #expect(try fetch("/static/dev-tenant/tenant.css").status == 404)
        #expect(try fetch("/static/app.000000000000.css").status == 404)
        let current = try #require(
            try FileManager.default.contentsOfDirectory(atPath: dir + "/static").first {
                $0.hasPrefix("app.") && $0 != "app.css"
            })
        let answer = try fetch("/static/\(current)")
        #expect(answer.status == 200)
        #expect(answer.headers["cache-control"] == "public, max-age=31536000, immutable")
    }

    private static func start(_ path: String, _ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    @discardableResult
    private static func run(_ path: String, _ arguments: [String], _ environment: [String: String] = [:]) throws
        -> String
    {
        let (status, output) = try output(path, arguments, environment)
        guard status == 0 else { throw StackError("\(path) \(arguments) failed: \(output)") }
        return output
    }

    private static func output(_ path: String, _ arguments: [String], _ environment: [String: String] = [:]) throws
        -> (Int32, String)
    {
        try Stack.run(path, arguments, environment: environment)
    }
}
