internal import CFastCGI
import FoundationEssentials
import Glibc
import Locking
import Synchronization
import Web

/// Serves FastCGI requests through a `Responder`. A few page threads share one epoll set: they
/// accept connections, read what each has received, and once a request is whole read its
/// records and answer it at once when that needs no wait on another service (pages, `/healthz`);
/// requests that wait (calls to the tenant) go to a larger waiting pool. No thread ever waits on
/// a peer: sockets do not block, a request not whole within its deadline is closed, and kept
/// connections hold no thread between requests, so nginx may keep as many as it likes.
/// Stops on SIGTERM or SIGINT: stops accepting (connections then wait in the listening socket's
/// queue for the next worker when the socket is handed over), answers requests already begun,
/// closes its connections as they become idle (up to a deadline), then returns.
public final class FastCGIServer: Sendable {
    /// How the server serves.
    public struct Options: Sendable {
        /// Threads of the waiting pool: requests that call another service, each holding a thread while it waits.
        public var threads: Int = 32
        /// Threads answering requests that need no wait (and watching every connection): half the
        /// cores, at least one. They never wait, and nginx on the same machine spends about twice
        /// the worker's CPU on each page (16 µs against 7-9 here): one per core left them and
        /// nginx's workers taking turns on every core: on two cores a page cost the worker 8.0-10.2
        /// µs of CPU with two, 6.7-7.9 with one, at the same rate (the two alternated on one stack).
        public var pageThreads: Int = max(1, ProcessInfo.processInfo.activeProcessorCount / 2)
        /// Bodies larger than this get 413 without being read.
        public var maxBodyBytes: Int = 64 * 1024
        /// Requests whose parameters (the HTTP head, as CGI variables) are larger are closed.
        public var maxHeadBytes: Int = 96 * 1024
        /// How long a request may take to arrive whole, from its first byte.
        public var requestSeconds: Int = 10
        /// How long a request's head (its parameters) may take to arrive, from its first byte: a
        /// web server sends it at once, so a peer trickling it is cut off early.
        public var headSeconds: Int = 3
        /// The most requests one peer (a user on a unix socket, whatever processes it forks; an
        /// address over TCP) may have arriving at once; its oldest beyond that are closed. A web
        /// server sends each request whole, so only a peer holding requests open reaches it.
        public var unfinishedPerPeer: Int = 64
        /// The most bytes all requests still arriving may hold together; past it, those
        /// arriving the longest are closed. Two hundred requests of the largest size at once:
        /// a web server sending whole requests stays far below it.
        public var maxHeldBytes: Int = 32 * 1024 * 1024
        /// How long a kept connection may stay idle (longer than nginx's keepalive_timeout, 60 s).
        public var idleSeconds: Int = 300
        /// The most connections held at once (also bounded by the open-file limit): the
        /// connection idle the longest makes room for a new one, else the one whose request has
        /// been arriving the longest, so a peer holding requests open cannot shut others out.
        public var maxConnections: Int = 4096
        /// The users (ids) who may connect on a unix socket, besides root and the worker's own;
        /// nil admits whoever the socket's permissions let in.
        public var peerUsers: Set<UInt32>?
        /// The unix socket's permission bits.
        public var socketMode: Int = 0o660
        /// The TCP peers that may connect (loopback only by default).
        public var peers = PeerPolicy.loopback
        /// The group that owns the unix socket (so the web server's group may connect); nil
        /// leaves the process's own.
        public var socketGroup: UInt32?
        /// How long requests in flight may take to finish at shutdown.
        public var drainSeconds: Double = 10
        /// The listening socket's queue of connections not yet accepted.
        public var backlog: Int32 = 512
        /// What the service manager shows (`STATUS=`, `systemctl status`) once requests are served.
        public var readyStatus = "serving"
        /// The defaults.
        public init() {}
    }

    private let address: ListenAddress
    let options: Options
    let responder: any Responder
    let log: Log
    /// Requests whole and not yet answered.
    let inFlight = Atomic<Int>(0)
    /// Set at SIGTERM/SIGINT: connections are closed as they become idle.
    let stopping = Atomic<Bool>(false)

    /// A server of `responder` on `address`, logging to `log`.
    public init(address: ListenAddress, options: Options, responder: any Responder, log: Log) {
        self.address = address
        self.options = options
        self.responder = responder
        self.log = log
    }

    /// Tells the service manager what the worker is doing now (`STATUS=`: the line `systemctl
    /// status` shows first); nothing when no one asked (`NOTIFY_SOCKET` unset).
    public static func reportStatus(_ text: String) { ServiceStatus.report(text) }

    /// Says `text` as the status and waits (at most a second) until the service manager has
    /// read it: for a worker about to exit, whose last word would otherwise be lost with it.
    public static func reportFinalStatus(_ text: String) {
        ServiceStatus.report(text)
        ServiceNotice.barrier()
    }

    /// Opens the socket, serves until SIGTERM/SIGINT, drains, and returns.
    public func run() throws {
        guard FCGX_Init() == 0 else { throw FastCGIError("FCGX_Init failed") }
        // FCGX_Init installs handlers that only set a flag; SIGPIPE is ignored instead (a web
        // server gone mid-answer must not end the worker), and stop signals are waited for below.
        CFastCGI_ignoreSIGPIPE()
        // glibc makes a malloc arena per allocating thread (up to 8 per core); the waiting pool's
        // threads mostly wait, and an arena each would cost memory, not speed.
        mallopt(M_ARENA_MAX, Int32(max(1, options.pageThreads) + 2))
        let fileLimit = CFastCGI_raiseFileLimit(65536)
        let table = ConnectionTable(capacity: max(16, min(options.maxConnections, fileLimit - 64)))
        let poller = try ConnectionPoller(listener: try openSocket())
        CFastCGI_blockStopSignals()  // inherited by every thread started below
        let framing = newFraming()
        // 1 MiB is ample for the request path once JSON nesting is capped at 64 levels before
        // decoding (JSONValue.decode): 400 levels used to overflow it.
        let stackSize = 1 << 20
        let pool = WaitingPool(
            threads: options.threads, name: "fcgi-wait", stackSize: stackSize, scratchBytes: framing.capacity)
        let serving = ConnectionDriver(server: self, table: table, poller: poller, pool: pool)
        for index in 0..<max(1, options.pageThreads) {
            startThread("fcgi-page-\(index)", stackSize: stackSize) {
                serving.servePages(scratch: Scratch(bytes: framing.capacity))
            }
        }
        let watchdog = ServiceNotice.watchdogMilliseconds()
        startThread("fcgi-sweep", stackSize: 256 << 10) { serving.sweepUntilStopped(watchdogMilliseconds: watchdog) }
        log(
            .info, "listening",
            [
                "address": address.description, "page_threads": String(options.pageThreads),
                "threads": String(options.threads), "connections": String(table.capacity),
            ])
        ServiceStatus.report(options.readyStatus, ready: true)
        let signal = CFastCGI_waitForStopSignal()
        log(.info, "stopping", ["signal": String(signal)])
        ServiceNotice.send("STOPPING=1")
        stopping.store(true, ordering: .releasing)
        poller.stopAccepting()
        // New connections now fail at once; an inherited socket (systemd's, or the run script's
        // supervisor's) stays open there, which holds them for the next start.
        if case .unixSocket(let path) = address { unlink(path) }
        let deadline = Date().addingTimeInterval(options.drainSeconds)
        while (table.count > 0 || inFlight.load(ordering: .acquiring) > 0) && Date() < deadline {
            usleep(5_000)
        }
        poller.stop()
        pool.stop()
        log(
            .info, "stopped",
            ["unfinished": String(inFlight.load(ordering: .acquiring)), "open_connections": String(table.count)])
    }

    private func startThread(_ name: String, stackSize: Int, _ body: @escaping @Sendable () -> Void) {
        Threads.start(name, stackSize: stackSize, body)
    }

    func newFraming() -> RequestFraming {
        RequestFraming(maxHeadBytes: options.maxHeadBytes, maxBodyBytes: options.maxBodyBytes)
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
}

/// A failure to start serving.
public struct FastCGIError: Error, CustomStringConvertible {
    /// What failed, naming the call or setting.
    public let description: String
    init(_ description: String) { self.description = description }
}
