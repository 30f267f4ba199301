import Foundation
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
    var baseURL: String { "http://127.0.0.1:\(appPort)" }
    private var processes: [String: Process] = [:]
    private let lock = NSLock()

    /// Starts nginx and the worker; `workerEnvironment` adds settings.
    init(workerEnvironment: [String: String] = [:]) throws {
        runDir = NSTemporaryDirectory() + "metadata-demo-test-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: runDir, withIntermediateDirectories: true)
        appPort = try Stack.freePort()
        try startWorker(extra: workerEnvironment)
        try renderNginxConfig()
        try start("nginx", "/usr/sbin/nginx", ["-p", runDir, "-c", runDir + "/nginx.conf", "-g", "daemon off;"])
        try waitForPort(appPort)
        Stack.register(self)
    }

    deinit { stop() }

    /// The worker's environment: its socket in the run folder, the real templates.
    func startWorker(extra: [String: String] = [:]) throws {
        var env = [
            "FASTCGI_LISTEN": "unix:\(runDir)/metadata-demo.sock", "FASTCGI_SOCKET_MODE": "666",
            "TEMPLATES_DIR": Stack.repoRoot + "/Templates", "WORKER_THREADS": "8", "LOG_LEVEL": "info",
        ]
        env.merge(extra) { $1 }
        try start("worker", Stack.binDir + "/metadata-demo", [], environment: env)
        try waitForSocket(runDir + "/metadata-demo.sock")
    }

    /// Sends a signal to one of the processes and waits for it to exit; returns its status.
    @discardableResult
    func signal(_ name: String, _ signal: Int32) -> Int32 {
        guard let process = lock.withLock({ processes[name] }) else { return -1 }
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// What a process wrote to its log so far.
    func log(_ name: String) -> String {
        (try? String(contentsOfFile: "\(runDir)/\(name).log", encoding: .utf8)) ?? ""
    }

    func stop() {
        let all = lock.withLock { () -> [Process] in
            defer { processes = [:] }
            return Array(processes.values)
        }
        for process in all where process.isRunning { process.terminate() }
        for process in all { process.waitUntilExit() }
    }

    private func renderNginxConfig() throws {
        let env = ["RUN_DIR": runDir, "APP_PORT": String(appPort), "DEV_TENANT_PORT": ""]
        let config = try Stack.output(Stack.repoRoot + "/scripts/nginx-conf", [], environment: env)
        try config.write(toFile: runDir + "/nginx.conf", atomically: true, encoding: .utf8)
    }

    private func start(_ name: String, _ path: String, _ arguments: [String], environment: [String: String] = [:])
        throws
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        FileManager.default.createFile(atPath: "\(runDir)/\(name).log", contents: nil)
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: "\(runDir)/\(name).log"))
        log.seekToEndOfFile()
        process.standardOutput = log
        process.standardError = log
        try process.run()
        lock.withLock { processes[name] = process }
    }

    private func waitForSocket(_ path: String) throws {
        for _ in 0..<200 {
            if FileManager.default.fileExists(atPath: path) { return }
            usleep(25_000)
        }
        throw StackError("no socket at \(path); log: \(log("worker"))")
    }

    private func waitForPort(_ port: Int) throws {
        let client = TestClient()
        for _ in 0..<200 {
            if (try? client.get("http://127.0.0.1:\(port)/healthz")) != nil { return }
            usleep(25_000)
        }
        throw StackError("nothing answers on port \(port); nginx log: \(log("nginx"))")
    }

    /// A port nothing listens on now (bound then released).
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound else { throw StackError("cannot find a free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    static func output(_ path: String, _ arguments: [String], environment: [String: String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw StackError("\(path) failed") }
        return String(decoding: data, as: UTF8.self)
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
