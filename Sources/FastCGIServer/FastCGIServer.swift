internal import CFastCGI
import Foundation
import Synchronization
import Web

/// A pool of threads serving FastCGI requests through a `Responder`. The threads share one
/// epoll set: whichever is free takes the next connection that has a request waiting, reads it
/// with libfcgi, answers, and puts the connection back. Kept connections therefore hold no
/// thread between requests, and nginx may keep as many as it likes. Stops on SIGTERM or SIGINT:
/// stops taking requests, lets those in flight finish (up to a deadline), then returns.
public final class FastCGIServer: Sendable {
    /// How the server serves.
    public struct Options: Sendable {
        /// Requests served at once (a call to the tenant holds its thread while it waits).
        public var threads: Int = 32
        /// Bodies larger than this get 413 without being read.
        public var maxBodyBytes: Int = 64 * 1024
        /// The unix socket's permission bits.
        public var socketMode: Int = 0o660
        /// The TCP peers that may connect (loopback only by default).
        public var peers = PeerPolicy.loopback
        /// The group that owns the unix socket (so the web server's group may connect); nil
        /// leaves the process's own.
        public var socketGroup: UInt32?
        /// How long the web server may pause while sending a request or reading an answer.
        public var stallSeconds: Int32 = 30
        /// How long requests in flight may take to finish at shutdown.
        public var drainSeconds: Double = 10
        /// The listening socket's queue of connections not yet accepted.
        public var backlog: Int32 = 512
        /// The defaults.
        public init() {}
    }

    private let address: ListenAddress
    private let options: Options
    private let responder: any Responder
    private let log: Log
    private let inFlight = Atomic<Int>(0)

    /// A server of `responder` on `address`, logging to `log`.
    public init(address: ListenAddress, options: Options, responder: any Responder, log: Log) {
        self.address = address
        self.options = options
        self.responder = responder
        self.log = log
    }

    /// Opens the socket, serves until SIGTERM/SIGINT, drains, and returns.
    public func run() throws {
        guard FCGX_Init() == 0 else { throw FastCGIError("FCGX_Init failed") }
        // FCGX_Init installs flag-only handlers; take signals back (see design.md pitfalls).
        CFastCGI_ignoreSIGPIPE()
        let poller = try ConnectionPoller(listener: try openSocket())
        CFastCGI_blockStopSignals()  // inherited by every thread started below
        for index in 0..<max(1, options.threads) {
            let thread = Thread { [self] in serve(poller) }
            thread.name = "fcgi-\(index)"
            // 1 MiB is ample for the request path once JSON nesting is capped at 64 levels before
            // decoding (JSONValue.decode): 400 levels used to overflow it. Kept small because
            // there are WORKER_THREADS of them.
            thread.stackSize = 1 << 20
            thread.start()
        }
        log(.info, "listening", ["address": address.description, "threads": String(options.threads)])
        let signal = CFastCGI_waitForStopSignal()
        log(.info, "stopping", ["signal": String(signal)])
        poller.stop()
        // New connections now fail at once; an inherited (systemd) socket stays open in systemd,
        // which holds them for the next start.
        if case .unixSocket(let path) = address { unlink(path) }
        let deadline = Date().addingTimeInterval(options.drainSeconds)
        while inFlight.load(ordering: .acquiring) > 0 && Date() < deadline {
            usleep(5_000)
        }
        log(.info, "stopped", ["unfinished": String(inFlight.load(ordering: .acquiring))])
    }

    private func openSocket() throws -> Int32 {
        switch address {
        case .inherited(let fd):
            return fd
        case .tcp(let host, let port):
            let fd = FCGX_OpenSocket("\(host):\(port)", options.backlog)
            guard fd >= 0 else { throw FastCGIError("cannot listen on \(host):\(port)") }
            return fd
        case .unixSocket(let path):
            // Made under a temporary name, given its group and mode, then renamed into place: a
            // client finding the path never meets it half set up (nginx refused, or too open).
            let building = path + ".\(getpid()).new"
            unlink(building)
            let fd = FCGX_OpenSocket(building, options.backlog)
            guard fd >= 0 else { throw FastCGIError("cannot listen on unix socket \(path)") }
            if let group = options.socketGroup, chown(building, uid_t.max, gid_t(group)) != 0 {
                throw FastCGIError("cannot give unix socket \(path) to group \(group)")
            }
            chmod(building, mode_t(options.socketMode))
            guard rename(building, path) == 0 else {  // replaces a stale socket from a killed worker
                throw FastCGIError("cannot put unix socket \(path) in place")
            }
            return fd
        }
    }

    private func serve(_ poller: ConnectionPoller) {
        while true {
            switch poller.next() {
            case .stop:
                return
            case .failed(let error):
                // A worker whose threads cannot wait for requests is deaf: better to exit and be
                // restarted by the supervisor (systemd, or the run script's) than to linger.
                log(.error, "epoll_wait failed", ["error": String(cString: strerror(error))])
                _exit(70)
            case .listener:
                acceptWaiting(poller)
            case .connection(let connection):
                if connection.nextRequest() {
                    inFlight.add(1, ordering: .relaxed)
                    handle(connection)
                    connection.finish()
                    inFlight.subtract(1, ordering: .releasing)
                }
                if !connection.isOpen || !poller.rearm(connection) { poller.forget(connection) }
            }
        }
    }

    /// Accepts every connection waiting, watches each for its first request, and re-arms the
    /// listening socket.
    private func acceptWaiting(_ poller: ConnectionPoller) {
        defer { poller.rearmListener() }
        while true {
            let fd = CFastCGI_acceptConnection(poller.listener, options.stallSeconds)
            if fd >= 0 {
                if let peer = refusedPeer(fd) {
                    log(.warning, "refused a connection", ["peer": peer, "setting": "FCGI_WEB_SERVER_ADDRS"])
                    close(fd)
                    continue
                }
                if !poller.watch(FastCGIConnection(socket: fd)) {
                    log(.error, "cannot watch a connection", ["error": String(cString: strerror(errno))])
                }
                continue
            }
            switch errno {
            case EINTR, ECONNABORTED, EPROTO:
                continue
            case EAGAIN:
                return
            default:
                // Out of file descriptors or memory: the connections wait in the backlog; pause
                // rather than spin on a socket that stays readable.
                log(.error, "cannot accept", ["error": String(cString: strerror(errno))])
                usleep(100_000)
                return
            }
        }
    }

    /// The peer's address when it is a TCP peer not admitted (or cannot be told), else nil:
    /// with a list, only its addresses; without one, only loopback unless told otherwise.
    private func refusedPeer(_ fd: Int32) -> String? {
        guard options.peers != .any else { return nil }
        var address: UInt32 = 0
        switch CFastCGI_peerIPv4(fd, &address) {
        case 0: return nil
        case 1:
            if options.peers.admits(address) { return nil }
            return withUnsafeBytes(of: address) { $0.map(String.init).joined(separator: ".") }
        default: return "unknown"
        }
    }

    private func handle(_ fcgi: FastCGIConnection) {
        var (request, length) = fcgi.head()
        let response: Response
        if length > options.maxBodyBytes {
            response = responder.respond(to: request, rejectedWith: .contentTooLarge)
        } else {
            request.body = fcgi.readBody(limit: length)
            response = responder.respond(to: request)
        }
        // Head and body go into libfcgi's buffer one after the other: the body is not copied twice.
        fcgi.write(FastCGIServer.head(of: response))
        if request.method != "HEAD" { fcgi.write(response.body) }
    }

    /// The head of a FastCGI (CGI-style) response: `Status:` line, headers, blank line.
    static func head(of response: Response) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(1024)
        out.append(contentsOf: "Status: \(response.status) \(Response.reason(response.status))\r\n".utf8)
        for (name, value) in response.headers where FastCGIServer.isSafeHeaderValue(value) {
            out.append(contentsOf: name.utf8)
            out.append(contentsOf: ": ".utf8)
            out.append(contentsOf: value.utf8)
            out.append(contentsOf: "\r\n".utf8)
        }
        if response.header("Content-Length") == nil {
            out.append(contentsOf: "Content-Length: \(response.body.count)\r\n".utf8)
        }
        out.append(contentsOf: "\r\n".utf8)
        return out
    }
}

extension FastCGIServer {
    /// A value with CR or LF would split the header: such a field is dropped, never sent.
    static func isSafeHeaderValue(_ value: String) -> Bool {
        !value.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0 }
    }
}

/// A failure to start serving.
public struct FastCGIError: Error, CustomStringConvertible {
    /// What failed, naming the call or setting.
    public let description: String
    init(_ description: String) { self.description = description }
}
