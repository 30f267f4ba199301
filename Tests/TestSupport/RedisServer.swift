import Foundation
import Glibc

/// A real `redis-server` on a free loopback port, without persistence, stopped when the test
/// process exits (or by `stop()`, to test a store that has gone away).
public final class RedisServer: @unchecked Sendable {
    /// Its port on 127.0.0.1.
    public let port: Int
    private var process: ChildProcess?
    private let lock = NSLock()

    /// The server every suite of this process shares.
    public static let shared: RedisServer = {
        // swift-format-ignore: NeverUseForceTry
        // Without the server no test of this suite can run: stopping here says why at once.
        let server = try! RedisServer()
        atexit { RedisServer.shared.stop() }
        return server
    }()

    /// Starts a server of its own on a free port.
    public init() throws {
        port = try LoopbackPort.free()
        try start()
    }

    /// Its `SESSION_STORE` URL (database 0).
    public var url: String { "redis://127.0.0.1:\(port)/0" }

    /// Starts it (again) on its port.
    public func start() throws {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/redis-server")
        process.arguments = [
            "--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
            "--daemonize", "no", "--loglevel", "warning", "--dir", NSTemporaryDirectory(),
        ]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        lock.withLock { self.process = process }
        for _ in 0..<200 {
            if LoopbackPort.accepts(port) { return }
            usleep(25_000)
        }
        throw RedisServerError("redis-server did not start on port \(port)")
    }

    /// Stops it at once (SIGKILL), as a crash or a network cut would.
    public func stop() {
        guard let process = lock.withLock({ self.process.take() }) else { return }
        kill(process.processIdentifier, SIGKILL)
        // Polled rather than waitUntilExit, which can hang on a killed child here.
        for _ in 0..<200 where LoopbackPort.accepts(port) { usleep(10_000) }
    }
}

struct RedisServerError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
