import Foundation
import Glibc
import TestSupport
import Testing
import Web

/// The real processes on loopback: nginx in front, the product's worker (and the dev tenant)
/// behind it over unix sockets, each in a fresh run folder on free ports.
final class Stack: @unchecked Sendable {
    static let repoRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    static let binDir = ProcessInfo.processInfo.environment["BIN_DIR"] ?? repoRoot + "/.build/debug"

    let runDir: String
    let appPort: Int
    let tenantPort: Int
    var baseURL: String { "http://127.0.0.1:\(appPort)" }
    var tenantURL: String { "http://127.0.0.1:\(tenantPort)" }
    /// The settings `scripts/dev-env.sh` gives the worker and the tenant (one source of truth).
    let devEnvironment: [String: String]
    private var processes: [String: ChildProcess] = [:]
    private let lock = NSLock()
    /// Worker processes behind nginx's upstream (`worker`, `worker-2`, …), sharing the ledger.
    let workers: Int
    /// The settings every worker start adds, restarts included.
    let workerEnvironment: [String: String]
    /// True when each worker runs under `scripts/fastcgi-supervisor`, which holds its socket and
    /// starts it again (`make run`'s way); the process named `worker` is then the supervisor.
    let supervised: Bool
    /// The mini-app file the workers and nginx were given (`make run`'s example apps), or nil.
    let miniAppsFile: String?
    /// The example mini apps' file, as `make run` uses it.
    static let exampleMiniApps = repoRoot + "/deploy/mini-apps/mini-apps.json"

    /// Starts the dev tenant, `workers` worker processes (under the supervisor when `supervised`;
    /// 0: the test starts its own) and nginx; the dictionaries add or override settings. With
    /// `miniAppsFile`, nginx and the workers get its mini apps and each app's sample program
    /// starts, as `make run` starts them.
    init(
        workers: Int = 1, workerEnvironment: [String: String] = [:], tenantEnvironment: [String: String] = [:],
        supervised: Bool = false, miniAppsFile: String? = nil
    ) throws {
        self.workers = workers
        self.miniAppsFile = miniAppsFile
        var workerEnvironment = workerEnvironment
        if let miniAppsFile { workerEnvironment["MINI_APPS_FILE"] = miniAppsFile }
        self.workerEnvironment = workerEnvironment
        self.supervised = supervised
        runDir = NSTemporaryDirectory() + "metadata-demo-test-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: runDir, withIntermediateDirectories: true)
        appPort = try Stack.freePort()
        tenantPort = try Stack.freePort()
        devEnvironment = try Stack.devEnvironment(runDir: runDir, appPort: appPort, tenantPort: tenantPort)
        try startTenant(extra: tenantEnvironment)
        // nginx first: the worker reads the tenant's discovery document through it at start-up.
        try renderNginxConfig()
        try start("nginx", "/usr/sbin/nginx", ["-p", runDir, "-c", runDir + "/nginx.conf", "-g", "daemon off;"])
        // The sample sibling app behind /mini/, verifying the identity assertions with PyJWT
        // (Debian's python3-jwt, hence Debian's python).
        try start(
            "mini-app", "/usr/bin/python3",
            [Stack.repoRoot + "/deploy/mini-app/mini_app.py", "--listen", "unix:" + runDir + "/mini.sock"]
                + ["--site", "http://127.0.0.1:\(appPort)"])
        try waitForSocket(runDir + "/mini.sock", log: "mini-app")
        try startMiniApps()
        // The app's port is only connected to: a request there before the workers listen would
        // make nginx set the upstream servers aside for 10 s (its max_fails), failing what follows.
        LoopbackPort.waitUntilAccepting(appPort, seconds: 5)
        try waitForPort(tenantPort)
        // What answered must be this stack's nginx, not another server on a port it could not take.
        if lock.withLock({ processes["nginx"] }).map({ !$0.isRunning }) == true {
            throw StackError("nginx stopped; its log: \(logForAMessage("nginx"))")
        }
        for index in 0..<workers { try startWorker(index + 1) }
        for index in 0..<workers { try waitUntilServing(index + 1) }
        Stack.register(self)
    }

    /// Waits until worker `index` serves the product: on a loaded machine its first look at the
    /// tenant may go unanswered for its 15 s, and it then answers 503 ("Auth0 unreachable") until
    /// its next look finds the tenant, which it logs (a test of that state starts its worker
    /// itself). Read from its log, so no request is added to what tests count.
    func waitUntilServing(_ index: Int, seconds: Double = 90) throws {
        let name = Stack.workerName(index)
        guard logForAMessage(name).contains("tenant unreachable at start") else { return }
        let served = eventually(within: seconds, every: 0.2) {
            logForAMessage(name).contains("tenant answers: serving")
        }
        if !served {
            throw StackError(
                "\(name) did not reach the tenant within \(Int(seconds)) s; its log: \(logForAMessage(name)); "
                    + "nginx's: \(logForAMessage("nginx")); the tenant's: \(logForAMessage("dev-tenant"))")
        }
    }

    deinit { stop() }

    /// Starts worker `index` (1: `worker` on metadata-demo.sock; n: `worker-n` on
    /// metadata-demo-n.sock, as `scripts/nginx-conf` lists them) pointed at the dev tenant, with
    /// the stack's worker settings and then `extra`.
    /// The worker listens once it has read the tenant's discovery document, which it asks for up
    /// to 15 s (`StartupDiscovery.patience`): the wait is longer than that, so a slow start under a
    /// sanitizer on a loaded machine is waited for, not taken for a failure.
    func startWorker(_ index: Int = 1, extra: [String: String] = [:], waitSeconds: Double = 30) throws {
        let name = Stack.workerName(index)
        let socket = workerSocket(index)
        var env = devEnvironment
        env.merge(["FASTCGI_LISTEN": "unix:\(socket)", "WORKER_THREADS": "8", "LOG_LEVEL": "info"]) { $1 }
        env.merge(workerEnvironment) { $1 }
        env.merge(extra) { $1 }
        try? FileManager.default.removeItem(atPath: socket)
        if supervised {
            let supervisor = Stack.repoRoot + "/scripts/fastcgi-supervisor"
            try start(
                name, "/usr/bin/env",
                ["python3", supervisor, "--name", name, "--socket", socket, "--", Stack.binDir + "/metadata-demo"],
                environment: env)
            try waitForSocket(socket, log: name)
            // The supervisor's socket accepts before the worker serves: wait for its first answer.
            var client = FastCGITestClient(socket: try #require(Stack.connect(unixSocket: socket)))
            defer { close(client.fd) }
            _ = try client.get("/healthz")
        } else {
            try start(name, Stack.binDir + "/metadata-demo", [], environment: env)
            try waitForSocket(socket, log: name, seconds: waitSeconds)
        }
    }

    /// The pid of worker `index`'s process (under a supervisor: its child), nil if none runs.
    func workerPID(_ index: Int = 1) -> pid_t? {
        guard let process = lock.withLock({ processes[Stack.workerName(index)] }), process.isRunning else { return nil }
        let pid = process.processIdentifier
        guard supervised else { return pid }
        let children = (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? ""
        return children.split(separator: " ").compactMap { pid_t($0) }.last
    }

    /// Sends a signal to a process the stack started, without waiting for it.
    func send(_ signal: Int32, to name: String) {
        guard let process = lock.withLock({ processes[name] }) else { return }
        kill(process.processIdentifier, signal)
    }

    /// The unix socket of worker `index`.
    func workerSocket(_ index: Int) -> String {
        runDir + (index == 1 ? "/metadata-demo.sock" : "/metadata-demo-\(index).sock")
    }

    /// The process name of worker `index`.
    static func workerName(_ index: Int) -> String { index == 1 ? "worker" : "worker-\(index)" }

    /// Starts a second worker, named `name`, listening on TCP (as on another host behind nginx);
    /// returns its port once it accepts connections.
    func startWorkerOnTCP(name: String, host: String = "127.0.0.1", extra: [String: String] = [:]) throws -> Int {
        let port = try Stack.freePort()
        var env = devEnvironment
        env.merge(["FASTCGI_LISTEN": "\(host):\(port)", "WORKER_THREADS": "2", "LOG_LEVEL": "info"]) { $1 }
        env.merge(extra) { $1 }
        try start(name, Stack.binDir + "/metadata-demo", [], environment: env)
        for _ in 0..<200 {
            if let fd = Stack.connect(tcpPort: port) {
                close(fd)
                return port
            }
            usleep(25_000)
        }
        throw StackError("\(name) does not listen on port \(port); log: \(logForAMessage(name))")
    }

    /// Starts the dev tenant; its state and key files stay in the run folder across restarts.
    func startTenant(extra: [String: String] = [:]) throws {
        var env = devEnvironment.merging(Stack.tenantDefaults) { $1 }
        env.merge(["FASTCGI_LISTEN": "unix:\(runDir)/dev-tenant.sock", "LOG_LEVEL": "info"]) { $1 }
        env.merge(extra) { $1 }
        try? FileManager.default.removeItem(atPath: runDir + "/dev-tenant.sock")
        try start("dev-tenant", Stack.binDir + "/dev-tenant", [], environment: env)
        try waitForSocket(runDir + "/dev-tenant.sock", log: "dev-tenant")
    }

    /// What every test tenant is started with: tests log in and save many times a minute, so
    /// Auth0's per-user limit (10) is lifted unless a test sets its own (the contract tests check
    /// the limit itself).
    static let tenantDefaults = ["DEV_TENANT_USER_RATE_PER_MINUTE": "1000"]

    /// Runs `scripts/dev-env.sh` and reads back what it exports.
    static func devEnvironment(runDir: String, appPort: Int, tenantPort: Int) throws -> [String: String] {
        let script = "here=\"$1\"; source \"$here/scripts/dev-env.sh\"; env -0"
        let output = try output(
            "/bin/bash", ["-c", script, "dev-env", repoRoot],
            environment: ["RUN_DIR": runDir, "APP_PORT": String(appPort), "DEV_TENANT_PORT": String(tenantPort)])
        var env: [String: String] = [:]
        for entry in output.split(separator: "\0") {
            guard let equals = entry.firstIndex(of: "=") else { continue }
            let name = String(entry[..<equals])
            if name.hasPrefix("AUTH0_") || name.hasPrefix("DEV_TENANT_") || name.hasPrefix("IDENTITY_ASSERTION_")
                || name == "APP_BASE_URL"
                || name == "TEMPLATES_DIR" || name == "PUBLIC_DIR" || name == "FASTCGI_SOCKET_GROUP"
                || name == "STATE_DIR"
            {
                env[name] = String(entry[entry.index(after: equals)...])
            }
        }
        return env
    }

    /// What the tenant answers an administrator deleting every session of `sub` (Management
    /// API): its status; the tenant then sends the back-channel logout.
    func deleteTenantSessions(of sub: String) throws -> Int {
        let admin = try managementToken(scope: "delete:sessions")
        return try TestClient().send(
            "DELETE", tenantURL + "/api/v2/users/" + PercentEncoding.encode(sub) + "/sessions",
            headers: [("Authorization", "Bearer " + admin)]
        ).status
    }

    /// A Management API token of the dev application from the tenant's `client_credentials`
    /// grant, as an administrator's script gets one.
    func managementToken(scope: String) throws -> String {
        let answer = try TestClient().post(
            tenantURL + "/oauth/token",
            form: [
                ("grant_type", "client_credentials"), ("client_id", devEnvironment["AUTH0_CLIENT_ID"] ?? ""),
                ("client_secret", devEnvironment["AUTH0_CLIENT_SECRET"] ?? ""), ("audience", tenantURL + "/api/v2/"),
                ("scope", scope),
            ])
        guard answer.status == 200, let token = JSONValue.parse(Array(answer.body.utf8))?["access_token"]?.string
        else { throw StackError("no management token: \(answer.status) \(answer.body)") }
        return token
    }

    /// Stops the dev tenant and starts it again with other settings (its state file is kept).
    func restartTenant(_ extra: [String: String] = [:]) throws {
        signal("dev-tenant", SIGTERM)
        try startTenant(extra: extra)
    }

    /// True while the process started under `name` has not exited (the tests run no supervisor:
    /// a crash would leave it dead).
    func isRunning(_ name: String) -> Bool { lock.withLock { processes[name] }?.isRunning ?? false }

    /// A counter's value from the worker's `/metrics` (through nginx, from loopback), summed over
    /// its labels.
    func metric(_ name: String) throws -> Double {
        Stack.sum(of: name, inMetrics: try TestClient().get(baseURL + "/metrics").body)
    }

    /// The sum of a metric's samples in Prometheus' text format.
    static func sum(of name: String, inMetrics text: String) -> Double {
        text.split(separator: "\n").filter { $0.hasPrefix(name + " ") || $0.hasPrefix(name + "{") }
            .compactMap { $0.split(separator: " ").last.flatMap { Double($0) } }.reduce(0, +)
    }

    /// Sends a signal to one of the processes and waits for it to exit; returns its status.
    @discardableResult
    func signal(_ name: String, _ signal: Int32) -> Int32 {
        guard let process = lock.withLock({ processes[name] }) else { return -1 }
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// What a process wrote to its log so far; throws when there is no such log to read, so a
    /// check that a line is absent cannot pass on a log that was never written.
    func log(_ name: String) throws -> String {
        try String(contentsOfFile: "\(runDir)/\(name).log", encoding: .utf8)
    }

    /// The log for a failure's message: what was written, or that there is none.
    func logForAMessage(_ name: String) -> String { (try? log(name)) ?? "(no log at \(runDir)/\(name).log)" }

    func stop() {
        let all = lock.withLock { () -> [ChildProcess] in
            defer { processes = [:] }
            return Array(processes.values)
        }
        for process in all where process.isRunning { process.terminate() }
        // A process that does not stop within 15 s is killed: a test must never hang on one.
        let deadline = Date().addingTimeInterval(15)
        while all.contains(where: \.isRunning) && Date() < deadline { usleep(20_000) }
        for process in all where process.isRunning { kill(process.processIdentifier, SIGKILL) }
        for process in all { process.waitUntilExit() }
    }

    /// Each mini app of the file, on the socket its nginx location names (`scripts/mini-apps-list`
    /// gives the same lines to `make run`).
    private func startMiniApps() throws {
        guard let miniAppsFile else { return }
        let lines = try Stack.check(
            Stack.repoRoot + "/scripts/mini-apps-list", [],
            environment: ["MINI_APPS_FILE": miniAppsFile, "APP_BASE_URL": baseURL].merging(
                devEnvironment.filter { $0.key == "DEV_TENANT_CONFIG" }
            ) { $1 })
        for line in lines.split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            try #require(fields.count == 9)
            let (name, audience, title, api, scope) = (fields[0], fields[1], fields[2], fields[4], fields[5])
            let stepUp =
                (fields[7].isEmpty ? [] : ["--claims", fields[7]])
                + (fields[6].isEmpty ? [] : ["--step-up", fields[6]])
            var apiOption: [String] = []
            if !api.isEmpty {
                let socket = runDir + "/api-\(name).sock"
                try start(
                    "api-" + name, "/usr/bin/python3",
                    [Stack.repoRoot + "/deploy/mini-app/mini_api.py", "--listen", "unix:" + socket]
                        + ["--issuer", tenantURL + "/", "--audience", api, "--scope", scope, "--name", title + " API"]
                        + stepUp)
                try waitForSocket(socket, log: "api-" + name)
                apiOption = ["--api", "unix:" + socket]
            }
            let socket = runDir + "/mini-\(name).sock"
            try start(
                "mini-" + name, "/usr/bin/python3",
                [Stack.repoRoot + "/deploy/mini-app/mini_app.py", "--listen", "unix:" + socket, "--site", baseURL]
                    + ["--audience", audience, "--title", title, "--title-zh", fields[8]] + apiOption)
            try waitForSocket(socket, log: "mini-" + name)
        }
    }

    /// The header `name` of what the worker's `check` (`/auth/check`, `/auth/check/NAME`) answers
    /// for the visitor holding `browser`'s cookies, as it hands it to nginx (asked on its own
    /// socket): the identity assertion, an app's access token.
    func checkHeader(_ name: String, for browser: TestClient, check: String) throws -> String {
        let cookie = try #require(browser.cookieHeader(for: baseURL + check))
        let answer = try askCheck(check, cookie: cookie, worker: 1)
        let line = try #require(answer.split(separator: "\r\n").first { $0.hasPrefix(name + ": ") })
        return String(line.dropFirst(name.count + 2))
    }

    /// What worker `index`'s `check` answers (its FastCGI response, headers first) for a visitor
    /// sending `cookie`: each worker asked on its own socket, as nginx may ask any of them.
    func askCheck(_ check: String, cookie: String, worker index: Int) throws -> String {
        let fd = try #require(Stack.connect(unixSocket: workerSocket(index)))
        defer { close(fd) }
        var worker = FastCGITestClient(socket: fd)
        return try worker.get(check, headers: [("Cookie", cookie)])
    }

    private func renderNginxConfig() throws {
        var env = [
            "RUN_DIR": runDir, "APP_PORT": String(appPort), "DEV_TENANT_PORT": String(tenantPort),
            "WORKER_PROCESSES": String(workers),
        ]
        if let miniAppsFile { env["MINI_APPS_FILE"] = miniAppsFile }
        let config = try Stack.output(Stack.repoRoot + "/scripts/nginx-conf", [], environment: env)
        try config.write(toFile: runDir + "/nginx.conf", atomically: true, encoding: .utf8)
    }

    /// Starts a process of the stack as `name`, its output in `RUN_DIR/NAME.log`; `stop()` ends it.
    func start(_ name: String, _ path: String, _ arguments: [String], environment: [String: String] = [:])
        throws
    {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        if !FileManager.default.fileExists(atPath: "\(runDir)/\(name).log") {
            _ = FileManager.default.createFile(atPath: "\(runDir)/\(name).log", contents: nil)
        }
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: "\(runDir)/\(name).log"))
        log.seekToEndOfFile()
        process.standardOutput = log
        process.standardError = log
        try process.run()
        lock.withLock { processes[name] = process }
    }

    func waitForSocket(_ path: String, log name: String, seconds: Double = 10) throws {
        for _ in 0..<Int(seconds * 40) {
            // The file appears at bind(); wait until connect() is accepted, i.e. after listen().
            if FileManager.default.fileExists(atPath: path), Stack.accepts(unixSocket: path) { return }
            // A process that has exited will not listen: no waiting out the rest.
            if lock.withLock({ processes[name] }).map({ !$0.isRunning }) == true { break }
            usleep(25_000)
        }
        throw StackError("no socket at \(path); log: \(logForAMessage(name))")
    }

    private func waitForPort(_ port: Int) throws {
        let client = TestClient()
        for _ in 0..<200 {
            if (try? client.get("http://127.0.0.1:\(port)/healthz")) != nil { return }
            usleep(25_000)
        }
        throw StackError("nothing answers on port \(port); nginx log: \(logForAMessage("nginx"))")
    }

    /// True when a connection to the unix socket is accepted.
    static func accepts(unixSocket path: String) -> Bool {
        guard let fd = connect(unixSocket: path) else { return false }
        close(fd)
        return true
    }

    /// A connection to the unix socket, open until the caller closes it; nil if refused.
    static func connect(unixSocket path: String) -> Int32? {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return nil }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        return connect(family: AF_UNIX, to: &address)
    }

    /// A TCP connection to `host` (127.0.0.1 by default), open until the caller closes it; nil if refused.
    static func connect(tcpPort port: Int, host: String = "127.0.0.1") -> Int32? {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr(host)
        address.sin_port = UInt16(port).bigEndian
        return connect(family: AF_INET, to: &address)
    }

    private static func connect<Address>(family: Int32, to address: inout Address) -> Int32? {
        let fd = socket(family, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<Address>.size)) == 0
            }
        }
        if connected { return fd }
        close(fd)
        return nil
    }

    /// A port nothing listens on now (bound then released).
    static func freePort() throws -> Int { try LoopbackPort.free() }

    static func output(_ path: String, _ arguments: [String], environment: [String: String]) throws -> String {
        let (status, output) = try run(path, arguments, environment: environment, errorsToo: false)
        guard status == 0 else { throw StackError("\(path) failed") }
        return output
    }

    /// Runs a command to its end: its exit status and what it printed (standard error too,
    /// unless `errorsToo` is false). `clean` gives it only `environment`.
    /// Runs a program that must succeed (else throws with its output); its output.
    @discardableResult
    static func check(_ path: String, _ arguments: [String], environment: [String: String] = [:]) throws -> String {
        let (status, output) = try run(path, arguments, environment: environment)
        guard status == 0 else { throw StackError("\(path) \(arguments) failed (\(status)): \(output)") }
        return output
    }

    static func run(
        _ path: String, _ arguments: [String], environment: [String: String] = [:], clean: Bool = false,
        errorsToo: Bool = true
    ) throws -> (status: Int32, output: String) {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        // A clean environment still carries what the build's instruments read: where line counts
        // go, and the sanitizers' options (the leaks a program ending by exit() leaves are no finding).
        let profile = ProcessInfo.processInfo.environment.filter {
            ["LLVM_PROFILE_FILE", "ASAN_OPTIONS", "TSAN_OPTIONS"].contains($0.key)
        }
        process.environment =
            clean
            ? profile.merging(environment) { $1 } : ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let pipe = Pipe()
        process.standardOutput = pipe
        if errorsToo { process.standardError = pipe }
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    // Stacks still running when the test process exits are stopped, so no nginx outlives it.
    nonisolated(unsafe) private static var live: [Stack] = []
    private static let liveLock = NSLock()
    private static func register(_ stack: Stack) {
        liveLock.withLock {
            if live.isEmpty { atexit { Stack.liveLock.withLock { Stack.live.forEach { $0.stop() } } } }
            live.append(stack)
        }
    }
}

struct StackError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
