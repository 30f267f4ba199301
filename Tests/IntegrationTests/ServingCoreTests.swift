import Foundation
import Glibc
import Locking
import TestSupport
import Testing

/// The serving core against peers that stall, dribble or send too much, a worker killed under
/// load, and a graceful reload: real nginx, worker, supervisor and dev tenant.
@Suite(.serialized) final class ServingCoreTests {
    /// A stop that arrives while the worker is still starting is kept for `run()`: the worker
    /// and the dev tenant block SIGTERM before any thread starts. (Once, a SIGTERM sent as soon
    /// as the socket accepted reached libfcgi's handler, which only sets a flag, and the worker
    /// never stopped.)
    @Test func aStopDuringStartUpStopsTheWorker() throws {
        let stack = try Stack(workers: 0)
        defer { stack.stop() }
        for index in 2...16 {
            try stack.startWorker(index, waitSeconds: 10)  // returns as soon as the socket accepts
            stack.send(SIGTERM, to: Stack.workerName(index))
            for _ in 0..<200 where stack.isRunning(Stack.workerName(index)) { usleep(25_000) }
            #expect(!stack.isRunning(Stack.workerName(index)), "worker \(index) ignored its SIGTERM")
        }
    }

    /// 80 connections that each send half a record header and then nothing: once, 4 such peers
    /// silenced a 4-thread worker. Now they hold no thread, and pages keep being answered.
    @Test func stalledPeersDoNotSilenceTheWorker() throws {
        let stack = try Stack(workerEnvironment: ["WORKER_THREADS": "4", "WORKER_PAGE_THREADS": "2"])
        defer { stack.stop() }
        let stalled = (0..<80).compactMap { _ in Stack.connect(unixSocket: stack.workerSocket(1)) }
        defer { stalled.forEach { close($0) } }
        #expect(stalled.count == 80)
        for fd in stalled { #expect(write(fd, [1, 1, 0, 1] as [UInt8], 4) == 4) }
        let client = TestClient()
        for _ in 0..<20 {
            #expect(try client.get(stack.baseURL + "/healthz").status == 200)
        }
        #expect(try client.get(stack.baseURL + "/").body.contains("Metadata demo"))
        // The stalled peers are still connected: nothing was closed to make room.
        var byte: UInt8 = 0
        #expect(recv(stalled[0], &byte, 1, Int32(MSG_DONTWAIT)) == -1 && errno == EAGAIN)
    }

    /// A peer sending its request a byte at a time is closed once the request deadline passes
    /// (`SO_RCVTIMEO` used to bound each read, so such a peer held a thread for good).
    @Test func aPeerThatDribblesIsClosedAtTheRequestDeadline() throws {
        let stack = try Stack(workerEnvironment: ["REQUEST_TIMEOUT_SECONDS": "1"])
        defer { stack.stop() }
        let fd = try #require(Stack.connect(unixSocket: stack.workerSocket(1)))
        defer { close(fd) }
        let request = FastCGIRecords.request(params: [("REQUEST_METHOD", "GET"), ("REQUEST_URI", "/")])
        var sent = 0
        var closed = false
        for byte in request.prefix(40) {
            if send(fd, [byte], 1, Int32(MSG_NOSIGNAL)) != 1 {
                closed = true
                break
            }
            sent += 1
            usleep(150_000)  // 40 bytes would take 6 s
        }
        if !closed {
            var byte: UInt8 = 0
            closed = recv(fd, &byte, 1, 0) <= 0
        }
        #expect(closed)
        #expect(sent < 40, "the worker waited for \(sent) bytes, 150 ms apart")
        #expect(try stack.log("worker").contains("closed connections: request not whole in time"))
        #expect(try TestClient().get(stack.baseURL + "/healthz").status == 200)
    }

    /// A body announced over the limit is answered 413 from the head alone, without waiting for
    /// it; the rest of it is read and dropped as it comes, and then the kept connection serves
    /// the web server's next request (review 3, smaller: the worker shut its side after the 413,
    /// and nginx, which keeps connections, sent its next request into it: a 502).
    @Test func aBodyOverTheLimitIsRefusedAtOnceAndTheConnectionServesOn() throws {
        let stack = try Stack()
        defer { stack.stop() }
        let fd = try #require(Stack.connect(unixSocket: stack.workerSocket(1)))
        defer { close(fd) }
        let client = FastCGITestClient(socket: fd, timeoutSeconds: 5)
        let params = [
            ("REQUEST_METHOD", "POST"), ("REQUEST_URI", "/affirmation"), ("CONTENT_LENGTH", "10000000"),
            ("CONTENT_TYPE", "application/x-www-form-urlencoded"),
        ]
        // A full record of 65,535 bytes (the limit is 65,536), then one announcing 65,535 more, of
        // which only 100 are sent.
        let full = FastCGIRecords.record(type: 5, id: 1, content: [UInt8](repeating: 0x61, count: 65535))
        let announced: [UInt8] = [1, 5, 0, 1, 0xFF, 0xFF, 0, 0] + [UInt8](repeating: 0x61, count: 100)
        try client.send(FastCGIRecords.head(params: params) + full + announced)
        let answer = try client.readAnswer()
        #expect(answer.hasPrefix("Status: 413"))
        // The rest of the body, well past the limit, its end, and the next request.
        try client.send([UInt8](repeating: 0x61, count: 65435))
        for _ in 0..<20 { try client.send(full) }
        try client.send(FastCGIRecords.record(type: 5, id: 1, content: []))
        var next = client
        #expect(try next.get("/healthz").hasPrefix("Status: 200"))
    }

    /// With the supervisor holding the socket (as systemd does), a worker killed under load is
    /// started again and no connection is refused; what failed is at most what was in flight
    /// (one request per client). With two workers, nginx sends the killed one's retried GETs to
    /// the other.
    @Test(arguments: [1, 2]) func aWorkerKilledUnderLoadRefusesNoConnection(workers: Int) throws {
        let stack = try Stack(workers: workers, supervised: true)
        defer { stack.stop() }
        let clients = 4
        let victim = try #require(stack.workerPID(1))
        let outcome = Load.run(clients: clients, seconds: 3, url: stack.baseURL + "/healthz") {
            kill(victim, SIGKILL)
        }
        #expect(outcome.answered > 100)
        #expect(outcome.failed <= clients, "\(outcome.failed) failed; \(outcome.statuses)")
        let nginxErrors = try stack.log("nginx-error")
        #expect(!nginxErrors.contains("connect() to unix"), "a connection was refused: \(nginxErrors)")
        let replacement = try #require(stack.workerPID(1))
        #expect(replacement != victim)
        #expect(try TestClient().get(stack.baseURL + "/healthz").status == 200)
    }

    /// A graceful reload (SIGHUP to the supervisor): a new worker starts on the same socket, and
    /// the old one stops once the new one is ready, answering what it had begun. No request fails.
    @Test func aReloadDropsNoRequest() throws {
        let stack = try Stack(supervised: true)
        defer { stack.stop() }
        let before = try #require(stack.workerPID(1))
        let outcome = Load.run(clients: 4, seconds: 4, url: stack.baseURL + "/") {
            stack.send(SIGHUP, to: "worker")
        }
        #expect(outcome.answered > 100)
        #expect(outcome.failed == 0, "\(outcome.statuses)")
        #expect(try stack.log("worker").contains("is ready; stopping pid \(before)"))
        let after = try #require(stack.workerPID(1))
        #expect(after != before)
        #expect(kill(before, 0) == -1)  // the old worker has exited
    }

    /// Under systemd (`Type=notify`, `WatchdogSec=`), the worker says READY=1 once it serves,
    /// WATCHDOG=1 twice per interval while its event loop turns, and STOPPING=1 at SIGTERM.
    @Test func theWorkerTellsTheServiceManagerItServesAndLives() throws {
        let stack = try Stack(workers: 0)
        defer { stack.stop() }
        let path = stack.runDir + "/notify"
        let listener = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { bytes in
            for (index, byte) in path.utf8.enumerated() { bytes[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        #expect(bound == 0)
        var limit = timeval(tv_sec: 0, tv_usec: 200_000)
        setsockopt(listener, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        try stack.startWorker(extra: ["NOTIFY_SOCKET": path, "WATCHDOG_USEC": "400000"])
        var messages: [String] = []
        let end = Date().addingTimeInterval(1.5)
        while Date() < end {
            var buffer = [UInt8](repeating: 0, count: 256)
            let count = recv(listener, &buffer, buffer.count, 0)
            if count > 0 { messages.append(String(decoding: buffer[..<count], as: UTF8.self)) }
        }
        #expect(messages.first == "READY=1\nSTATUS=serving", "\(messages)")
        #expect(messages.filter { $0 == "WATCHDOG=1" }.count >= 3, "\(messages)")  // every 200 ms, 1.5 s
        _ = stack.signal("worker", SIGTERM)
        var buffer = [UInt8](repeating: 0, count: 256)
        var last = ""
        while case let count = recv(listener, &buffer, buffer.count, 0), count > 0 {
            last = String(decoding: buffer[..<count], as: UTF8.self)
            if last == "STOPPING=1" { break }
        }
        #expect(last == "STOPPING=1")
    }

    /// A worker told to stop while a save waits on a slow tenant finishes the save first.
    @Test func stoppingFinishesASaveInFlight() throws {
        let stack = try Stack()
        defer { stack.stop() }
        let browser = TestClient()
        _ = try browser.logIn(stack, as: DemoUser.skippy)
        try stack.restartTenant(["DEV_TENANT_LATENCY_MS": "1500"])
        let csrf = try #require(TestClient.hiddenField("csrf", in: try browser.get(stack.baseURL + "/").body))
        let saved = Lock<Int?>(nil)
        let save = Thread {
            let status = try? browser.post(
                stack.baseURL + "/affirmation",
                form: [("csrf", csrf), ("action", "save"), ("affirmation", "Steady as she goes")],
                headers: [("Origin", stack.baseURL)]
            ).status
            saved.withLock { $0 = status }
        }
        save.start()
        usleep(500_000)  // the save now waits on the tenant
        let status = stack.signal("worker", SIGTERM)
        #expect(status == 0)
        for _ in 0..<100 where saved.withLock({ $0 }) == nil { usleep(50_000) }
        #expect(saved.withLock { $0 } == 303)
        #expect(try stack.log("worker").contains("msg=stopped unfinished=0"))
    }
}

/// Clients requesting one URL in a loop through nginx, with something done part-way.
enum Load {
    struct Outcome {
        var answered = 0
        var failed = 0
        var statuses: [Int: Int] = [:]
    }

    /// Runs `clients` loops for `seconds`, calling `midway` a third of the way in.
    static func run(clients: Int, seconds: Double, url: String, midway: @escaping @Sendable () -> Void) -> Outcome {
        let outcome = Lock(Outcome())
        let end = Date().addingTimeInterval(seconds)
        let threads = (0..<clients).map { _ in
            Thread {
                let client = TestClient()
                while Date() < end {
                    let status = (try? client.get(url).status) ?? 0
                    outcome.withLock {
                        $0.statuses[status, default: 0] += 1
                        if status == 200 { $0.answered += 1 } else { $0.failed += 1 }
                    }
                }
            }
        }
        threads.forEach { $0.start() }
        Thread.sleep(forTimeInterval: seconds / 3)
        midway()
        Thread.sleep(until: end.addingTimeInterval(2))
        return outcome.withLock { $0 }
    }
}
