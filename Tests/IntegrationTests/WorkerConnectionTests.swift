import Foundation
import Glibc
import Locking
import TestSupport
import Testing

/// How the worker treats nginx's connections: a connection kept open between requests, or one
/// that stays silent, must not hold one of the worker's few threads.
@Suite(.serialized) final class WorkerConnectionTests {
    @Test func silentConnectionsDoNotKeepOthersWaiting() throws {
        let stack = try Stack(workerEnvironment: ["WORKER_THREADS": "2"])
        defer { stack.stop() }
        // Three times as many connections as threads, none sending anything: were a thread to
        // wait on each, nginx's own connection would never be served.
        let silent = (0..<6).compactMap { _ in Stack.connect(unixSocket: stack.runDir + "/metadata-demo.sock") }
        defer { silent.forEach { close($0) } }
        #expect(silent.count == 6)
        let client = TestClient()
        for _ in 0..<10 {
            #expect(try client.get(stack.baseURL + "/healthz").status == 200)
        }
        #expect(try client.get(stack.baseURL + "/").body.contains("Metadata demo"))
    }

    @Test func garbageOnAConnectionClosesItAndServingGoesOn() throws {
        let stack = try Stack(workerEnvironment: ["WORKER_THREADS": "1"])
        defer { stack.stop() }
        let fd = try #require(Stack.connect(unixSocket: stack.runDir + "/metadata-demo.sock"))
        let garbage = Array("GET / HTTP/1.1\r\nHost: not-fastcgi\r\n\r\n".utf8)
        #expect(write(fd, garbage, garbage.count) == garbage.count)
        // The worker hangs up on what is not a FastCGI request at once: the read sees the end, or
        // a reset (what was sent is dropped unread).
        var byte: UInt8 = 0
        let got = read(fd, &byte, 1)
        #expect(got == 0 || (got == -1 && errno == ECONNRESET))
        close(fd)
        #expect(try TestClient().get(stack.baseURL + "/healthz").status == 200)
    }

    /// Runs `body` with a client connected to a worker on TCP (beside a stack's own).
    private func withTCPWorker(_ body: (inout FastCGITestClient) throws -> Void) throws {
        let stack = try Stack()
        defer { stack.stop() }
        let port = try stack.startWorkerOnTCP(name: "tcp-worker")
        let fd = try #require(Stack.connect(tcpPort: port))
        defer { close(fd) }
        var client = FastCGITestClient(socket: fd)
        try body(&client)
    }

    @Test func aWorkerOnTCPServesSeveralRequestsOnOneKeptConnection() throws {
        try withTCPWorker { client in
            let health = try client.get("/healthz")
            #expect(health.hasPrefix("Status: 200"))
            #expect(health.hasSuffix("\r\n\r\nok\n"))
            let home = try client.get("/")
            #expect(home.contains("Metadata demo"))
            #expect(try client.get("/nowhere").hasPrefix("Status: 404"))
        }
    }

    /// A web server that does not ask to keep the connection (no `FCGI_KEEP_CONN`) gets its
    /// answer and then the connection's end; a role other than responder is refused as the
    /// protocol says (`FCGI_UNKNOWN_ROLE`) and the connection serves on.
    @Test func theBeginRecordsFlagsAndRoleAreHonoured() throws {
        let stack = try Stack()
        defer { stack.stop() }
        let port = try stack.startWorkerOnTCP(name: "tcp-worker")
        let params = [("REQUEST_METHOD", "GET"), ("REQUEST_URI", "/healthz")]

        let once = try #require(Stack.connect(tcpPort: port))
        defer { close(once) }
        let client = FastCGITestClient(socket: once)
        try client.send(FastCGIRecords.request(params: params, keepConnection: false))
        #expect(try client.readAnswer().hasSuffix("\r\n\r\nok\n"))
        var byte: UInt8 = 0
        #expect(read(once, &byte, 1) == 0, "the connection stayed open")

        let kept = try #require(Stack.connect(tcpPort: port))
        defer { close(kept) }
        var other = FastCGITestClient(socket: kept)
        try other.send(FastCGIRecords.request(params: params, role: 2))  // the authorizer role
        #expect(try other.readEnd() == (stdout: 0, protocolStatus: 3))
        #expect(try other.get("/healthz").hasPrefix("Status: 200"))
    }

    /// A web server that sends the next request before reading the answer (nginx does not) has
    /// both answered, in order: the second came with the first and no event reports it again.
    @Test func twoRequestsSentTogetherAreBothAnswered() throws {
        try withTCPWorker { client in
            let request = { (id: Int, path: String) in
                FastCGIRecords.request(id: id, params: [("REQUEST_METHOD", "GET"), ("REQUEST_URI", path)])
            }
            try client.send(request(1, "/healthz") + request(2, "/nowhere"))
            #expect(try client.readAnswer().hasPrefix("Status: 200"))
            #expect(try client.readAnswer().hasPrefix("Status: 404"))
        }
    }

    @Test func onlyTheListedWebServersMayConnectOverTCP() throws {
        let stack = try Stack()
        defer { stack.stop() }
        let closed = try stack.startWorkerOnTCP(
            name: "elsewhere", extra: ["FCGI_WEB_SERVER_ADDRS": "192.0.2.10, 192.0.2.11"])
        let refused = try #require(Stack.connect(tcpPort: closed))
        defer { close(refused) }
        var byte: UInt8 = 0
        #expect(read(refused, &byte, 1) == 0)  // hung up on before any request
        #expect(try stack.log("elsewhere").contains("msg=\"refused a connection\" peer=127.0.0.1"))

        let open = try stack.startWorkerOnTCP(name: "here", extra: ["FCGI_WEB_SERVER_ADDRS": "192.0.2.10,127.0.0.1"])
        let fd = try #require(Stack.connect(tcpPort: open))
        defer { close(fd) }
        var client = FastCGITestClient(socket: fd)
        #expect(try client.get("/healthz").hasPrefix("Status: 200"))
    }

    /// Told nothing (no FCGI_WEB_SERVER_ADDRS), a worker listening on every address admits
    /// loopback peers only; `any` admits every peer.
    @Test func withoutAListOnlyLoopbackPeersMayConnectOverTCP() throws {
        let outside = try #require(Self.nonLoopbackAddress(), "this test needs an IPv4 address besides loopback")
        let stack = try Stack()
        defer { stack.stop() }
        let port = try stack.startWorkerOnTCP(name: "everywhere", host: "0.0.0.0")
        let refused = try #require(Stack.connect(tcpPort: port, host: outside))
        defer { close(refused) }
        var byte: UInt8 = 0
        #expect(read(refused, &byte, 1) == 0)  // hung up on before any request
        #expect(try stack.log("everywhere").contains("msg=\"refused a connection\" peer=\(outside)"))
        let local = try #require(Stack.connect(tcpPort: port))
        defer { close(local) }
        var client = FastCGITestClient(socket: local)
        #expect(try client.get("/healthz").hasPrefix("Status: 200"))

        let anyPort = try stack.startWorkerOnTCP(name: "any", host: "0.0.0.0", extra: ["FCGI_WEB_SERVER_ADDRS": "any"])
        let admitted = try #require(Stack.connect(tcpPort: anyPort, host: outside))
        defer { close(admitted) }
        var outsider = FastCGITestClient(socket: admitted)
        #expect(try outsider.get("/healthz").hasPrefix("Status: 200"))
    }

    /// Run as root, nginx's workers are the web server's user, and the worker's and the dev
    /// tenant's sockets are theirs through the group, mode 660 (they were 666, nginx root).
    @Test func localSocketsAre660ForTheWebServersGroupAndNginxWorkersAreNotRoot() throws {
        guard getuid() == 0 else { return }  // only root can switch nginx's workers to another user
        let stack = try Stack()
        defer { stack.stop() }
        let group = try #require(getgrnam("www-data")).pointee.gr_gid
        for socket in ["metadata-demo.sock", "dev-tenant.sock"] {
            var info = stat()
            #expect(stat(stack.runDir + "/" + socket, &info) == 0)
            #expect(info.st_mode & 0o777 == 0o660, "\(socket)")
            #expect(info.st_gid == group, "\(socket)")
        }
        #expect(try TestClient().get(stack.baseURL + "/healthz").status == 200)  // nginx still reaches the worker
        let workers = try Self.nginxWorkerUsers(master: stack.runDir + "/nginx.pid")
        #expect(!workers.isEmpty)
        #expect(workers.allSatisfy { $0 != 0 }, "nginx workers run as \(workers)")
    }

    /// The first IPv4 address of this machine that is not loopback.
    static func nonLoopbackAddress() -> String? {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0 else { return nil }
        defer { freeifaddrs(list) }
        var entry = list
        while let current = entry {
            defer { entry = current.pointee.ifa_next }
            guard let address = current.pointee.ifa_addr, address.pointee.sa_family == sa_family_t(AF_INET) else {
                continue
            }
            let ip = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                String(cString: inet_ntoa($0.pointee.sin_addr))
            }
            if !ip.hasPrefix("127.") { return ip }
        }
        return nil
    }

    /// The user ids of the nginx master's worker processes.
    static func nginxWorkerUsers(master pidFile: String) throws -> [UInt32] {
        let master = try String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(
            in: .whitespacesAndNewlines)
        let children = try String(contentsOfFile: "/proc/\(master)/task/\(master)/children", encoding: .utf8)
        return try children.split(separator: " ").map { pid in
            let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
            let uid = status.split(separator: "\n").first { $0.hasPrefix("Uid:") }?.split(separator: "\t")[1]
            return UInt32(uid ?? "0") ?? 0
        }
    }

    @Test func oneThreadServesManyVisitorsAtOnceOverKeptConnections() throws {
        let stack = try Stack(workerEnvironment: ["WORKER_THREADS": "1"])
        defer { stack.stop() }
        // nginx keeps one connection per visitor in flight (fastcgi_keep_conn); with one thread,
        // every kept connection must go back to the worker's pool between requests.
        let visitors = 8
        let answers = Lock<[Int]>([])
        DispatchQueue.concurrentPerform(iterations: visitors) { _ in
            let client = TestClient()
            for _ in 0..<10 {
                let status = (try? client.get(stack.baseURL + "/")).map(\.status) ?? 0
                answers.withLock { $0.append(status) }
            }
        }
        let statuses = answers.withLock { $0 }
        #expect(statuses.count == visitors * 10)
        #expect(statuses.allSatisfy { $0 == 200 })
    }
}
