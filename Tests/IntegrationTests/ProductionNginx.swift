import Foundation
import Glibc
import TestSupport

/// A real nginx running a production site file (the repository's, or the one a package
/// installed) with a throwaway certificate: only its ports, certificate, log folder, static
/// root and socket folder are rewritten. Workers are reached at `socketDirectory/N.sock`, as
/// systemd's `metadata-demo@N.socket` names them.
final class ProductionNginx {
    let dir = NSTemporaryDirectory() + "prod-site-\(UUID().uuidString.prefix(8))"
    let http: Int
    let https: Int
    let metrics: Int
    private var process: ChildProcess?

    /// The nginx.conf the site is included from: a minimal one (nothing at the http level but
    /// the site), or Debian's own, as the package installs beside it.
    enum MainConfig { case minimal, debianStock }

    /// Starts nginx with `site` (its text) serving static files from `staticRoot/static`.
    /// `edit` changes the site as an operator would before the ports are rewritten.
    /// `previousStaticRoot` stands for /var/cache/metadata-demo (the previous version's static
    /// files, kept by an upgrade); by default a folder that does not exist.
    init(
        site text: String, staticRoot: String, socketDirectory: String, previousStaticRoot: String? = nil,
        main: MainConfig = .minimal, edit: (String) -> String = { $0 }
    ) throws {
        (http, https, metrics) = (try Stack.freePort(), try Stack.freePort(), try Stack.freePort())
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try Stack.check(
            "/usr/bin/openssl",
            [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=demo.example.com",
                "-addext", "subjectAltName=DNS:demo.example.com", "-keyout", dir + "/privkey.pem", "-out",
                dir + "/fullchain.pem",
            ])
        var site = edit(text)
        for (from, to) in [
            ("/etc/letsencrypt/live/demo.example.com", dir), ("/usr/share/metadata-demo", staticRoot),
            ("/var/cache/metadata-demo", previousStaticRoot ?? dir + "/no-previous-static"),
            ("unix:/run/metadata-demo/", "unix:\(socketDirectory)/"), ("/var/log/nginx/", dir + "/"),
            ("listen 80", "listen 127.0.0.1:\(http)"), ("listen 443", "listen 127.0.0.1:\(https)"),
            ("127.0.0.1:9145", "127.0.0.1:\(metrics)"),
        ] {
            guard site.contains(from) else { throw StackError("the site no longer has \(from)") }
            site = site.replacingOccurrences(of: from, with: to)
        }
        site = site.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.contains("[::]") }
            .joined(separator: "\n")
        switch main {
        case .minimal: try Self.writeConfig(site: site, in: dir)
        case .debianStock: try Self.writeDebianConfig(site: site, in: dir)
        }
        let nginx = ChildProcess()
        nginx.executableURL = URL(fileURLWithPath: "/usr/sbin/nginx")
        nginx.arguments = ["-p", dir, "-c", dir + "/nginx.conf", "-g", "daemon off;"]
        nginx.standardOutput = FileHandle.nullDevice
        nginx.standardError = FileHandle.nullDevice
        try nginx.run()
        process = nginx
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

    /// Writes `site` and an nginx.conf including it in `dir` (as Debian's nginx.conf includes
    /// sites-enabled/ in its http block), with every file nginx writes kept in `dir`.
    static func writeConfig(site: String, in dir: String) throws {
        try site.write(toFile: dir + "/site.conf", atomically: true, encoding: .utf8)
        let main = """
            \(getuid() == 0 ? "user www-data www-data;" : "")
            pid \(dir)/nginx.pid;
            error_log \(dir)/error.log;
            events {}
            http {
                include /etc/nginx/mime.types;
                \(temporaryFolders(in: dir))
                include \(dir)/site.conf;
            }
            """
        try main.write(toFile: dir + "/nginx.conf", atomically: true, encoding: .utf8)
    }

    /// Where nginx keeps request bodies and buffered answers: in `dir`, not in /var/lib/nginx.
    static func temporaryFolders(in dir: String) -> String {
        "client_body_temp_path \(dir)/body; fastcgi_temp_path \(dir)/fcgi; proxy_temp_path \(dir)/proxy; "
            + "uwsgi_temp_path \(dir)/uwsgi; scgi_temp_path \(dir)/scgi;"
    }

    /// Writes `site` and Debian's /etc/nginx/nginx.conf including it in place of sites-enabled/,
    /// with only its files (pid, logs, temporary folders) moved into `dir`.
    static func writeDebianConfig(site: String, in dir: String) throws {
        try site.write(toFile: dir + "/site.conf", atomically: true, encoding: .utf8)
        var main = try String(contentsOfFile: "/etc/nginx/nginx.conf", encoding: .utf8)
        for (from, to) in [
            ("pid /run/nginx.pid;", "pid \(dir)/nginx.pid;"), ("/var/log/nginx/", dir + "/"),
            ("include /etc/nginx/conf.d/*.conf;", ""),
            (
                "include /etc/nginx/sites-enabled/*;",
                temporaryFolders(in: dir) + " include \(dir)/site.conf;"
            ),
        ] {
            guard main.contains(from) else { throw StackError("Debian's nginx.conf no longer has \(from)") }
            main = main.replacingOccurrences(of: from, with: to)
        }
        if getuid() != 0 { main = main.replacingOccurrences(of: "user www-data;", with: "") }
        try main.write(toFile: dir + "/nginx.conf", atomically: true, encoding: .utf8)
    }

    /// Stops nginx; its exit is polled, not awaited (Foundation's waitUntilExit can miss a child's end).
    func stop() {
        guard let process else { return }
        kill(process.processIdentifier, SIGTERM)
        for _ in 0..<200 where process.isRunning { usleep(25_000) }
    }

    /// One answer of the site over https (or http), as curl sees it: status, headers and body.
    func fetch(
        _ path: String, host: String = "demo.example.com", tls: Bool = true, method: String = "GET",
        cookie: String? = nil, headers extra: [String] = []
    ) throws -> (status: Int, headers: [String: String], body: String, curlExit: Int32) {
        let port = tls ? https : http
        let bodyFile = dir + "/body-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: bodyFile) }
        var arguments = [
            "-s", "-k", "-o", bodyFile, "-D", "-", "-X", method, "--resolve", "\(host):\(port):127.0.0.1",
            "\(tls ? "https" : "http")://\(host):\(port)\(path)",
        ]
        if let cookie { arguments += ["-H", "Cookie: \(cookie)"] }
        for header in extra { arguments += ["-H", header] }
        if method == "POST" { arguments += ["-H", "Origin: https://demo.example.com", "--data", "csrf=x"] }
        let (status, output) = try Stack.run("/usr/bin/curl", arguments, environment: [:])
        var headers: [String: String] = [:]
        var code = 0
        for line in output.split(separator: "\r\n") {
            if line.hasPrefix("HTTP/") { code = Int(line.split(separator: " ")[1]) ?? 0 }
            if let colon = line.firstIndex(of: ":") {
                headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                    in: .whitespaces)
            }
        }
        let body = (try? String(contentsOfFile: bodyFile, encoding: .utf8)) ?? ""
        return (code, headers, body, status)
    }

    /// The text of one worker's metrics from the loopback listener (`/metrics/NAME`).
    func metrics(worker: String) throws -> String {
        try Stack.run("/usr/bin/curl", ["-s", "http://127.0.0.1:\(metrics)/metrics/\(worker)"], environment: [:]).output
    }

    /// The site with its shipped-off `/mini/` turned on as its comment says: one "#" removed from
    /// the start of each line from `#location /mini/` through the @login location's end.
    static func withSiblingApp(_ site: String, at address: String) -> String {
        var inside = false
        var inLogin = false
        let lines = site.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            let indent = line.prefix { $0 == " " }
            let text = line.dropFirst(indent.count)
            if text.hasPrefix("#location /mini/") { inside = true }
            guard inside, text.hasPrefix("#") else { return String(line) }
            if text.hasPrefix("#location @login") { inLogin = true }
            if inLogin, text.hasPrefix("#}") { inside = false }
            return String(indent + text.dropFirst())
        }
        return lines.joined(separator: "\n").replacingOccurrences(of: "http://127.0.0.1:9180", with: address)
    }

    /// The production site with its mini apps turned on (`withMiniApps`, then `edit`) in front of
    /// `stack`'s worker, its static files published into `staticRoot` as the package does.
    static func miniAppsSite(for stack: Stack, staticRoot: String, edit: (String) -> String = { $0 }) throws
        -> ProductionNginx
    {
        try FileManager.default.createSymbolicLink(
            atPath: stack.runDir + "/1.sock", withDestinationPath: stack.runDir + "/metadata-demo.sock")
        try Stack.check(
            Stack.binDir + "/metadata-demo", ["publish-static", staticRoot + "/static"],
            environment: ["PUBLIC_DIR": Stack.repoRoot + "/Public"])
        if getuid() == 0 { try Stack.check("/bin/chmod", ["-R", "a+rX", staticRoot]) }
        let text = try String(contentsOfFile: Stack.repoRoot + "/deploy/nginx-site.conf", encoding: .utf8)
        return try ProductionNginx(site: text, staticRoot: staticRoot, socketDirectory: stack.runDir) {
            edit(ProductionNginx.withMiniApps($0))
        }
    }

    /// The site with its shipped-off mini apps turned on as its comment says: one "#" removed
    /// from the start of each line from `#location /auth/check/` through "end of the mini apps".
    static func withMiniApps(_ site: String) -> String {
        var inside = false
        let uncommented = site.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            let indent = line.prefix { $0 == " " }
            let text = line.dropFirst(indent.count)
            if text.hasPrefix("#location /auth/check/ {") { inside = true }
            guard inside, text.hasPrefix("#") else { return String(line) }
            if text.hasPrefix("## end of the mini apps") { inside = false }
            return String(indent + text.dropFirst())
        }.joined(separator: "\n")
        // The example units' sockets, where the stack runs each app (its socket folder, mini-NAME.sock).
        return uncommented.replacingOccurrences(
            of: "unix:/run/metadata-demo-example-apps/([a-z0-9-]+)/app\\.sock",
            with: "unix:/run/metadata-demo/mini-$1.sock",
            options: .regularExpression)
    }
}
