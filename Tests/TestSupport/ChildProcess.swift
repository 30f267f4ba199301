import Foundation
import Glibc

/// A program the tests start (nginx, the worker, Redis, a shell line), on `posix_spawn` directly.
///
/// Not Foundation's `Process`: on Linux its `run()` lists `/proc/self/fd` by copying each entry's
/// whole 256-byte name, reading past glibc's buffer, and now and then dies of it (SIGSEGV in
/// `memcpy`, swift-corelibs-foundation #5472, in the 6.3.1 toolchain). The tests hold hundreds of
/// sockets open, so it struck them; a crashed test process left its servers running and the run hung.
/// The surface is the part of `Process` the tests used, so call sites read the same.
public final class ChildProcess: @unchecked Sendable {
    /// The program to start (a path; no PATH search).
    public var executableURL: URL?
    /// Its arguments, after its own path.
    public var arguments: [String] = []
    /// The whole environment; nil inherits the test process's.
    public var environment: [String: String]?
    /// A `FileHandle` (its descriptor is given to the child) or a `Pipe` (the child gets the
    /// reading end, the test keeps the writing end); nil inherits the test process's.
    public var standardInput: Any?
    /// A `FileHandle` or a `Pipe` (the child gets the writing end); nil inherits.
    public var standardOutput: Any?
    /// As `standardOutput`.
    public var standardError: Any?

    private let lock = NSLock()
    private var pid: pid_t = 0
    private var status: Int32?

    /// Set the fields, then `run()`.
    public init() {}

    /// Its pid once started, else 0.
    public var processIdentifier: Int32 { lock.withLock { pid } }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34+), which Swift's Glibc module does
    /// not declare: every descriptor from the given one up is closed in the child, whatever the
    /// test process's other threads hold open at that moment.
    private static let closeFrom: @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32 = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")
        else { fatalError("glibc without posix_spawn_file_actions_addclosefrom_np (needs 2.34)") }
        return unsafeBitCast(
            symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
    }()

    /// Starts the program: its own process group (as `Process` did), default signal handling, only
    /// descriptors 0–2 open.
    public func run() throws {
        guard let path = executableURL?.path else { throw ChildProcessError("no executable") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        let streams: [(Any?, Int32, Bool)] = [
            (standardInput, STDIN_FILENO, true), (standardOutput, STDOUT_FILENO, false),
            (standardError, STDERR_FILENO, false),
        ]
        var parentEnds: [FileHandle] = []
        for (stream, target, isInput) in streams {
            switch stream {
            case let pipe as Pipe:
                let childEnd = isInput ? pipe.fileHandleForReading : pipe.fileHandleForWriting
                posix_spawn_file_actions_adddup2(&actions, childEnd.fileDescriptor, target)
                parentEnds.append(childEnd)
            case let handle as FileHandle:
                posix_spawn_file_actions_adddup2(&actions, handle.fileDescriptor, target)
            default:
                break
            }
        }
        guard Self.closeFrom(&actions, 3) == 0 else {
            throw ChildProcessError("posix_spawn_file_actions_addclosefrom_np")
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var all = sigset_t()
        var none = sigset_t()
        sigfillset(&all)
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let pairs = environment.map { $0.map { "\($0.key)=\($0.value)" } }
        let envp = pairs.map { $0.map { strdup($0) } + [nil] }
        defer { envp?.forEach { free($0) } }

        var child: pid_t = 0
        let failed =
            envp.map { posix_spawn(&child, path, &actions, &attributes, argv, $0) }
            ?? posix_spawn(&child, path, &actions, &attributes, argv, environ)
        guard failed == 0 else { throw ChildProcessError("\(path): \(String(cString: strerror(failed)))") }
        lock.withLock { pid = child }
        // The child holds its ends now; the test's copies would keep a reader from ever seeing EOF.
        for end in parentEnds { try? end.close() }
    }

    /// True until the program has exited (and then it is reaped).
    public var isRunning: Bool {
        lock.withLock {
            guard pid > 0, status == nil else { return false }
            var raw: Int32 = 0
            let reaped = waitpid(pid, &raw, WNOHANG)
            if reaped == pid {
                status = raw
            } else if reaped == -1, errno != EINTR {
                status = -1
            }
            return status == nil
        }
    }

    /// Returns once it has exited.
    public func waitUntilExit() {
        while isRunning { usleep(5_000) }
    }

    /// Its exit status, or the number of the signal that ended it (as `Process` reported it).
    public var terminationStatus: Int32 {
        lock.withLock {
            guard let status, status != -1 else { return -1 }
            let signal = status & 0x7f
            return signal == 0 ? (status >> 8) & 0xff : signal
        }
    }

    /// Runs `path` with `arguments` to its end; its exit status and what it wrote on stdout.
    public static func output(_ path: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// Sends it SIGTERM.
    public func terminate() {
        let pid = processIdentifier
        if pid > 0 { kill(pid, SIGTERM) }
    }
}

/// Why a program could not be started.
public struct ChildProcessError: Error, CustomStringConvertible {
    /// The program and the reason.
    public let description: String
    init(_ description: String) { self.description = description }
}
