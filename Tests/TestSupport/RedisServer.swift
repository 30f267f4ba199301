import Foundation
import Glibc

/// A real `redis-server` on a free loopback port, without persistence, stopped when the test
/// process exits (or by `stop()`, to test a store that has gone away).
public final class RedisServer: @unchecked Sendable {
    /// Its port on 127.0.0.1.
    public let port: Int
    /// The program and what goes before and after the common options (a sentinel's config file first).
    private let program: String
    private let leading: [String]
    private let extra: [String]
    /// Its own folder, where it writes its snapshot (a replica's full sync, a `SAVE`) and a
    /// sentinel its config: never the working folder, never a file another server reads.
    private let folder: String
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

    /// Starts a server of its own on a free port, `extra` added to its options (`--replicaof …`).
    public init(extra: [String] = []) throws {
        port = try LoopbackPort.free()
        folder = try Self.ownFolder(port)
        program = "/usr/bin/redis-server"
        leading = []
        self.extra = extra
        try start()
    }

    /// Starts Debian's `redis-sentinel` on a free port, watching the primary on `primaryPort` as
    /// `service` (one sentinel is a quorum): it calls the primary down after a second unanswered.
    public init(sentinelFor service: String, primaryPort: Int) throws {
        port = try LoopbackPort.free()
        folder = try Self.ownFolder(port)
        program = "/usr/bin/redis-sentinel"
        let config = folder + "/sentinel.conf"  // the sentinel rewrites it
        try """
        sentinel monitor \(service) 127.0.0.1 \(primaryPort) 1
        sentinel down-after-milliseconds \(service) 1000
        sentinel failover-timeout \(service) 5000
        """.write(toFile: config, atomically: true, encoding: .utf8)
        leading = [config]
        extra = []
        try start()
    }

    /// Its `SESSION_STORE` URL (database 0).
    public var url: String { "redis://127.0.0.1:\(port)/0" }

    /// Starts it (again) on its port.
    public func start() throws {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments =
            leading + [
                "--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                "--daemonize", "no", "--loglevel", "warning", "--dir", folder,
                "--dbfilename", snapshotName,
            ] + extra
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        lock.withLock { self.process = process }
        if LoopbackPort.waitUntilAccepting(port, seconds: 5) { return }
        throw RedisServerError("\(program) did not start on port \(port)")
    }

    /// Its RDB file, in its folder: written only by `SAVE` or a replica's sync (no automatic
    /// saves), read when it starts again.
    private let snapshotName = "dump.rdb"

    private static func ownFolder(_ port: Int) throws -> String {
        let folder = NSTemporaryDirectory() + "redis-\(port)-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Writes its RDB snapshot now (`SAVE`): after a `stop()`, `start()` comes back with what
    /// it held at this moment, as a Redis killed between two of Debian's timed saves does.
    public func saveSnapshot() throws {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/redis-cli")
        process.arguments = ["-p", String(port), "SAVE"]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw RedisServerError("redis-cli SAVE failed on port \(port)") }
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
