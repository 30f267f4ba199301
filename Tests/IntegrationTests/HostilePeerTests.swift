import Foundation
import Glibc
import TestSupport
import Testing

/// A process on the worker's own socket that is not nginx (review 2, item 7): it filled the
/// connection table with requests it never finished, and nginx got 502 for as long as it did.
@Suite(.serialized) struct HostilePeerTests {
    /// The begin record and the first byte of a parameters record: a request that never ends.
    private static let unfinished = Array(FastCGIRecords.head(params: [("REQUEST_METHOD", "GET")]).prefix(9))

    /// True when the worker hung up on `fd` within `seconds` (the end, or a reset).
    private static func hungUp(_ fd: Int32, within seconds: Double) -> Bool {
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, Int32(seconds * 1000)) == 1 else { return false }
        var byte: UInt8 = 0
        let got = read(fd, &byte, 1)
        return got == 0 || (got == -1 && errno == ECONNRESET)
    }

    @Test func aPeerHoldingUnfinishedRequestsCannotShutNginxOut() throws {
        let stack = try Stack(workerEnvironment: ["WORKER_CONNECTIONS": "64"])
        defer { stack.stop() }
        #expect(try TestClient().get(stack.baseURL + "/healthz").status == 200)
        // More unfinished requests than the table holds: nginx's kept connection is pushed out.
        var held: [Int32] = []
        defer { held.forEach { close($0) } }
        for _ in 0..<80 {
            guard let fd = Stack.connect(unixSocket: stack.runDir + "/metadata-demo.sock") else { continue }
            _ = write(fd, Self.unfinished, Self.unfinished.count)
            held.append(fd)
            usleep(2_000)
        }
        usleep(300_000)
        // Within the head deadline (3 s), nginx still gets answers: its new connections push out
        // the requests that have been arriving the longest.
        let began = Date()
        for _ in 0..<5 { #expect(try TestClient().get(stack.baseURL + "/healthz").status == 200) }
        #expect(Date().timeIntervalSince(began) < 2)
        usleep(1_200_000)
        #expect(try stack.log("worker").contains("closed connections: full, their requests arriving the longest"))
    }

    /// Review 3, item 1: `CONTENT_LENGTH=-1` trapped the worker (twelve crashes in ten seconds
    /// from one peer, nginx answering 502 meanwhile). Now such a request is refused as a malformed
    /// one is, with or without a body, under the body limit or over it (the 413 path), and the
    /// same worker process goes on serving nginx.
    @Test func aNegativeContentLengthIsRefusedAndTheWorkerLivesOn() throws {
        let stack = try Stack()
        defer { stack.stop() }
        let pid = try #require(stack.workerPID())
        let params = [("REQUEST_METHOD", "POST"), ("REQUEST_URI", "/affirmation"), ("CONTENT_LENGTH", "-1")]
        // No body, a small one, and two records over the 64 KiB limit (answered 413 from the head).
        let big = FastCGIRecords.record(type: 5, content: Array(repeating: 120, count: 40_000))
        let bodies: [[UInt8]] = [[], FastCGIRecords.record(type: 5, content: Array("affirmation=x".utf8)), big + big]
        for round in 0..<12 {
            let fd = try #require(Stack.connect(unixSocket: stack.runDir + "/metadata-demo.sock"))
            defer { close(fd) }
            let body = bodies[round % bodies.count]
            let bytes = FastCGIRecords.head(params: params) + body + FastCGIRecords.record(type: 5, content: [])
            _ = write(fd, bytes, bytes.count)
            #expect(Self.hungUp(fd, within: 5), "round \(round): not hung up on")
        }
        #expect(stack.workerPID() == pid, "the worker was started again: it crashed")
        #expect(try TestClient().get(stack.baseURL + "/healthz").status == 200)
        #expect(try stack.log("worker").contains("closed a connection: not a FastCGI request"))
    }

    /// Review 3, item 4: the cap of 64 unfinished requests was per process, so a peer forking
    /// processes got round it, and each worker held up to 96 KiB of head and 64 KiB of body per
    /// request until its deadline (~790 MB seen). Now the cap is per user and every arriving
    /// request counts against one budget (32 MiB): 32 processes holding 64 requests of ~150 KB
    /// each leave the worker's peak memory near its rest, and nginx is answered meanwhile.
    @Test func aPeerForkingProcessesCannotMakeTheWorkerHoldItsRequests() throws {
        let stack = try Stack()
        defer { stack.stop() }
        let pid = try #require(stack.workerPID())
        // A head of ~90 KB (in two records: one holds at most 65,535 bytes) and 60 KB of body.
        let params = [
            ("REQUEST_METHOD", "POST"), ("CONTENT_LENGTH", "60000"),
            ("HTTP_X_PAD", String(repeating: "p", count: 60_000)),
            ("HTTP_X_PAD2", String(repeating: "q", count: 30_000)),
        ].flatMap { FastCGIRecords.pair($0.0, $0.1) }
        let head =
            FastCGIRecords.begin() + FastCGIRecords.record(type: 4, content: Array(params[..<50_000]))
            + FastCGIRecords.record(type: 4, content: Array(params[50_000...]))
            + FastCGIRecords.record(type: 4, content: [])
        let request = head + FastCGIRecords.record(type: 5, content: Array(repeating: 120, count: 60_000))
        let requestFile = stack.runDir + "/unfinished-request"
        try Data(request).write(to: URL(fileURLWithPath: requestFile))
        let script = """
            import os, socket, sys, time
            path, data = sys.argv[1], open(sys.argv[2], "rb").read()
            children = []
            for _ in range(32):
                child = os.fork()
                if child == 0:
                    held = []
                    for _ in range(64):
                        s = socket.socket(socket.AF_UNIX)
                        try:
                            s.connect(path)
                            s.sendall(data)  # never the body's end: the request stays unfinished
                            held.append(s)
                        except OSError:
                            s.close()
                    time.sleep(2)
                    os._exit(0)
                children.append(child)
            for child in children:
                os.waitpid(child, 0)
            print("done")
            """
        let before = Self.peakMemoryKB(of: pid)
        let hoarder = try Stack.run(
            "/usr/bin/python3", ["-c", script, stack.runDir + "/metadata-demo.sock", requestFile])
        #expect(hoarder.output.contains("done"), "\(hoarder.output)")
        let peak = Self.peakMemoryKB(of: pid)
        // Under a sanitizer, freed memory is kept in quarantine: the peak says nothing there.
        let environment = ProcessInfo.processInfo.environment
        if environment["ASAN_OPTIONS"] == nil, environment["TSAN_OPTIONS"] == nil {
            #expect(peak - before < 96 * 1024, "the worker's peak memory grew by \(peak - before) kB")
        }
        let log = try stack.log("worker")
        #expect(
            log.contains("closed connections: too many requests arriving from one peer")
                || log.contains("closed connections: requests arriving held more than their memory budget"))
        #expect(try TestClient().get(stack.baseURL + "/healthz").status == 200)
        #expect(stack.workerPID() == pid)
    }

    /// The peak resident memory of process `pid` (VmHWM), in kB.
    private static func peakMemoryKB(of pid: pid_t) -> Int {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }

    @Test func aHeadTricklingInIsCutAfterThreeSecondsNotTen() throws {
        let stack = try Stack()
        defer { stack.stop() }
        let fd = try #require(Stack.connect(unixSocket: stack.runDir + "/metadata-demo.sock"))
        defer { close(fd) }
        #expect(write(fd, Self.unfinished, Self.unfinished.count) == Self.unfinished.count)
        let began = Date()
        #expect(Self.hungUp(fd, within: 6))
        let seconds = Date().timeIntervalSince(began)
        #expect(seconds > 2.5 && seconds < 5, "cut after \(seconds) s")
    }

    @Test func onePeerMayHoldAtMostSixtyFourRequestsArriving() throws {
        let stack = try Stack()
        defer { stack.stop() }
        var held: [Int32] = []
        defer { held.forEach { close($0) } }
        let began = Date()
        for _ in 0..<70 {
            let fd = try #require(Stack.connect(unixSocket: stack.runDir + "/metadata-demo.sock"))
            _ = write(fd, Self.unfinished, Self.unfinished.count)
            held.append(fd)
        }
        // The sweeper (every quarter second) closes this peer's six oldest; nothing else closes
        // them before the head deadline, 3 s after their first byte.
        var cut: Set<Int32> = []
        while cut.count < 6, Date().timeIntervalSince(began) < 2.5 {
            usleep(100_000)
            for fd in held where !cut.contains(fd) && Self.hungUp(fd, within: 0) { cut.insert(fd) }
        }
        usleep(200_000)
        for fd in held where !cut.contains(fd) && Self.hungUp(fd, within: 0) { cut.insert(fd) }
        #expect(Date().timeIntervalSince(began) < 2.9, "too slow to tell the cap from the head deadline")
        #expect(cut.count == 6, "\(cut.count) of 70 closed")
        #expect(try stack.log("worker").contains("closed connections: too many requests arriving from one peer"))
    }

    /// With FASTCGI_PEER_USERS, the kernel's word on who connected decides: nginx's user (and
    /// root) are served, anyone else is hung up on even when the socket's group lets them in.
    @Test func onlyTheListedUsersMayConnectOnTheUnixSocket() throws {
        guard getuid() == 0 else { return }  // only root can connect as another user
        let stack = try Stack(workerEnvironment: ["FASTCGI_PEER_USERS": "www-data"])
        defer { stack.stop() }
        #expect(try TestClient().get(stack.baseURL + "/healthz").status == 200)  // nginx, as www-data
        let socket = stack.runDir + "/metadata-demo.sock"
        let script = """
            import socket, sys
            s = socket.socket(socket.AF_UNIX)
            s.connect(sys.argv[1])
            s.settimeout(5)
            try:
                s.sendall(bytes.fromhex(sys.argv[2]))
                print("answered" if s.recv(8) else "hung up")
            except (ConnectionResetError, BrokenPipeError):
                print("hung up")
            """
        let request = FastCGIRecords.request(params: [("REQUEST_METHOD", "GET"), ("REQUEST_URI", "/healthz")])
        let hex = request.map { String(format: "%02x", $0) }.joined()
        // Another user in the web server's group, as a member of www-data would be.
        let stranger = try Stack.run(
            "/usr/bin/setpriv",
            [
                "--reuid=nobody", "--regid=nogroup", "--groups=www-data",
                "/usr/bin/python3", "-c", script, socket, hex,
            ])
        #expect(stranger.output.contains("hung up"), "\(stranger.output)")
        let rootToo = try Stack.run("/usr/bin/python3", ["-c", script, socket, hex])
        #expect(rootToo.output.contains("answered"), "\(rootToo.output)")
        usleep(1_100_000)
        #expect(try stack.log("worker").contains("refused connections: a user not in FASTCGI_PEER_USERS"))
    }
}
