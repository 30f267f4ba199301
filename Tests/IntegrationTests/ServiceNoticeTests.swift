import Foundation
import Glibc
import TestSupport
import Testing

/// Notices to the service manager (`NOTIFY_SOCKET`: systemd, or `make run`'s supervisor) never
/// hold up a worker, and the supervisor reads them all the time (review 3, smaller: it read them
/// only during a reload, so after enough restarts a worker's notice blocked on its full queue,
/// and the blocked thread was the one that waits for SIGTERM).
@Suite(.serialized) struct ServiceNoticeTests {
    /// A datagram socket at a fresh path whose queue is full: nobody reads it.
    private func fullNotifySocket() throws -> (fd: Int32, path: String) {
        let path = NSTemporaryDirectory() + "notify-\(UUID().uuidString.prefix(8))"
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        try #require(bound == 0)
        var sent = 0
        while sent < 10_000 {
            let wrote = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(fd, "WATCHDOG=1", 10, Int32(MSG_DONTWAIT), $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
            if wrote < 0 { break }
            sent += 1
        }
        try #require(sent < 10_000, "the queue never filled")
        return (fd, path)
    }

    @Test func aWorkerWhoseNoticesNobodyReadsStillStopsOnSIGTERM() throws {
        let stack = try Stack()
        defer { stack.stop() }
        let notify = try fullNotifySocket()
        defer { close(notify.fd) }
        try stack.startWorker(2, extra: ["NOTIFY_SOCKET": notify.path])
        var client = FastCGITestClient(socket: try #require(Stack.connect(unixSocket: stack.workerSocket(2))))
        #expect(try client.get("/healthz").hasPrefix("Status: 200"))
        close(client.fd)
        stack.send(SIGTERM, to: "worker-2")
        var running = true
        for _ in 0..<100 where running {
            usleep(100_000)
            running = stack.isRunning("worker-2")
        }
        #expect(!running, "the worker did not stop: its READY=1 blocked the thread that waits for SIGTERM")
        #expect(try stack.log("worker-2").contains("msg=stopped"))
    }

    @Test func theSupervisorReadsNoticesBetweenReloadsToo() throws {
        let folder = NSTemporaryDirectory() + "supervisor-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // A worker that says many notices, as one does over many restarts and watchdog turns,
        // with sd_notify's blocking send, then leaves a mark.
        let worker = """
            import os, socket, time
            s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
            for _ in range(300):
                s.sendto(b"WATCHDOG=1", os.environ["NOTIFY_SOCKET"])
            open(os.environ["MARK"], "w").close()
            time.sleep(60)
            """
        let supervisor = ChildProcess()
        supervisor.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        supervisor.arguments = [
            Stack.repoRoot + "/scripts/fastcgi-supervisor", "--socket", folder + "/worker.sock", "--group", "",
            "--", "/usr/bin/python3", "-c", worker,
        ]
        supervisor.environment = ProcessInfo.processInfo.environment.merging(["MARK": folder + "/sent"]) { $1 }
        supervisor.standardOutput = FileHandle.nullDevice
        supervisor.standardError = FileHandle.nullDevice
        try supervisor.run()
        defer { if supervisor.isRunning { kill(supervisor.processIdentifier, SIGKILL) } }
        var sent = false
        for _ in 0..<100 where !sent {
            usleep(100_000)
            sent = FileManager.default.fileExists(atPath: folder + "/sent")
        }
        #expect(sent, "the worker's notices blocked: the supervisor did not read them")
        kill(supervisor.processIdentifier, SIGTERM)
        var running = true
        for _ in 0..<100 where running {
            usleep(100_000)
            running = supervisor.isRunning
        }
        #expect(!running, "the supervisor did not stop on SIGTERM")
    }
}
