internal import CFastCGI
import Foundation
import Synchronization
import Web

/// What the page threads, the waiting pool and the sweeper do with connections.
///
/// Ownership: a connection is driven by one thread at a time, the one that raised its `pending`
/// count from zero (an event on a page thread, or the sweeper closing it). The owner looks at what
/// arrived, answers any whole request, and gives the connection up by taking back the events it
/// saw; events that came meanwhile make it look again, so none is lost. A request that must wait
/// is handed to the waiting pool with its ownership, and the pool's thread carries on from there.
final class ConnectionDriver: Sendable {
    private let server: FastCGIServer
    private let table: ConnectionTable
    private let poller: ConnectionPoller
    private let pool: WaitingPool
    private let refusals = RateLimitedCount()
    private let overdue = RateLimitedCount()
    private let strangers = RateLimitedCount()
    private let hoarded = RateLimitedCount()
    private let evicted = RateLimitedCount()
    /// When a page thread last answered the heartbeat (milliseconds, `Uptime`).
    private let lastHeartbeat = Atomic<Int64>(0)

    init(server: FastCGIServer, table: ConnectionTable, poller: ConnectionPoller, pool: WaitingPool) {
        self.server = server
        self.table = table
        self.poller = poller
        self.pool = pool
    }

    private var options: FastCGIServer.Options { server.options }
    private var log: Log { server.log }

    /// A page thread: waits for events until the server stops.
    func servePages(scratch: Scratch) {
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
                acceptWaiting()
            case .heartbeat:
                lastHeartbeat.store(Uptime.milliseconds(), ordering: .releasing)
            case .connection(let token):
                guard let connection = table.connection(for: token),
                    connection.pending.wrappingAdd(1, ordering: .acquiringAndReleasing).oldValue == 0
                else { continue }  // gone, or its owner will look again
                drive(connection, seen: 1, scratch: scratch, mayWait: false)
            }
        }
    }

    private enum Step {
        /// A request was answered. The next comes after its answer was read (a FastCGI web server
        /// does not send a request while one is open on the connection), so it will be reported.
        case answered
        /// Nothing more to do until more arrives.
        case needsMore
        /// The waiting pool owns the connection now.
        case handedOff
        /// The connection is closed.
        case closed
    }

    /// Drives an owned connection until nothing is left to do, then gives it up.
    private func drive(_ connection: FastCGIConnection, seen: Int, scratch: Scratch, mayWait: Bool) {
        var seen = seen
        while true {
            switch step(connection, seen: seen, scratch: scratch, mayWait: mayWait) {
            case .handedOff, .closed:
                return
            case .answered, .needsMore:
                let left = connection.pending.wrappingSubtract(seen, ordering: .acquiringAndReleasing).newValue
                if left == 0 { return }
                seen = left
            }
        }
    }

    private func step(_ connection: FastCGIConnection, seen: Int, scratch: Scratch, mayWait: Bool) -> Step {
        guard connection.isOpen else { return forget(connection) }
        if connection.isClosing.load(ordering: .relaxed) {
            return connection.discardArrived() ? .needsMore : close(connection)
        }
        let count = connection.peek(into: scratch.buffer)
        if count == 0 { return close(connection) }  // the peer hung up
        if count < 0 { return errno == EAGAIN || errno == EINTR ? .needsMore : close(connection) }
        if connection.busySince.load(ordering: .relaxed) == 0 {
            connection.busySince.store(Uptime.milliseconds(), ordering: .relaxed)
        }
        switch connection.framing.judge(UnsafeRawBufferPointer(rebasing: scratch.buffer[..<count])) {
        case .incomplete:
            if connection.framing.headIsWhole { connection.hasHead.store(true, ordering: .relaxed) }
            return .needsMore
        case .complete:
            return answer(connection, seen: seen, mayWait: mayWait)
        case .bodyTooLarge:
            return refuseTooLarge(connection)
        case .headTooLarge:
            log(.warning, "closed a connection: request head over the limit", ["limit": String(options.maxHeadBytes)])
            return close(connection)
        case .malformed:
            log(.warning, "closed a connection: not a FastCGI request")
            return close(connection)
        }
    }

    /// Has libfcgi read the whole request that arrived and answers it here, or hands it to the
    /// waiting pool.
    private func answer(_ connection: FastCGIConnection, seen: Int, mayWait: Bool) -> Step {
        connection.framing.reset()
        connection.busySince.store(0, ordering: .relaxed)
        connection.hasHead.store(false, ordering: .relaxed)
        guard connection.nextRequest() else { return forget(connection) }  // libfcgi closed it
        server.inFlight.add(1, ordering: .relaxed)
        var (request, length) = connection.head()
        request.body = connection.readBody(length: min(length, options.maxBodyBytes))
        if mayWait { return send(server.responder.respond(to: request), for: request, on: connection) }
        if let response = server.responder.respondWithoutWaiting(to: request) {
            return send(response, for: request, on: connection)
        }
        pool.submit { [self, request] scratch in
            let step = send(server.responder.respond(to: request), for: request, on: connection)
            if step == .answered { drive(connection, seen: seen, scratch: scratch, mayWait: true) }
        }
        return .handedOff
    }

    /// Answers 413 from the request's head alone, then closes once the peer has its answer.
    private func refuseTooLarge(_ connection: FastCGIConnection) -> Step {
        connection.framing.reset()
        connection.hasHead.store(true, ordering: .relaxed)
        guard connection.nextRequest() else { return forget(connection) }
        server.inFlight.add(1, ordering: .relaxed)
        let request = connection.head().request
        let step = send(
            server.responder.respond(to: request, rejectedWith: .contentTooLarge), for: request, on: connection)
        guard step == .answered else { return step }
        connection.beginClosing()
        return .needsMore
    }

    /// Writes the answer and ends the request (libfcgi writes without waiting: an answer that
    /// does not fit in the socket's buffer, a peer not reading, fails and closes it).
    private func send(_ response: Response, for request: Request, on connection: FastCGIConnection) -> Step {
        // Head and body go into libfcgi's buffer one after the other: the body is not copied twice.
        connection.write(FastCGIServer.head(of: response))
        if request.method != "HEAD" { connection.write(response.body) }
        connection.finish()
        server.inFlight.subtract(1, ordering: .releasing)
        connection.idleSince.store(Uptime.milliseconds(), ordering: .relaxed)
        guard connection.isOpen else { return forget(connection) }
        if server.stopping.load(ordering: .acquiring) { return close(connection) }
        return .answered
    }

    private func close(_ connection: FastCGIConnection) -> Step {
        table.remove(connection.token)
        connection.close()
        return .closed
    }

    /// Forgets a connection libfcgi has closed.
    private func forget(_ connection: FastCGIConnection) -> Step {
        table.remove(connection.token)
        return .closed
    }

    // MARK: Accepting

    /// Accepts every connection waiting, watches each, and re-arms the listening socket.
    private func acceptWaiting() {
        defer { poller.rearmListener() }
        while true {
            let fd = CFastCGI_acceptConnection(poller.listener)
            if fd >= 0 {
                if let peer = refusedPeer(fd) {
                    log(.warning, "refused a connection", ["peer": peer, "setting": "FCGI_WEB_SERVER_ADDRS"])
                    CFastCGI_close(fd)
                    continue
                }
                guard let peer = admittedPeer(fd) else {
                    CFastCGI_close(fd)
                    continue
                }
                admit(FastCGIConnection(socket: fd, framing: server.newFraming(), peer: peer))
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

    private func admit(_ connection: FastCGIConnection) {
        guard
            table.insert(connection) != nil
                || ((closeLongestIdle() || closeLongestArriving()) && table.insert(connection) != nil)
        else {
            if let count = refusals.add() {
                log(
                    .warning, "refused connections: too many open",
                    ["count": String(count), "limit": String(table.capacity)])
            }
            connection.close()
            return
        }
        // Watched after it is in the table: its first event may come at once, on another thread.
        if !poller.watch(connection) {
            log(.error, "cannot watch a connection", ["error": String(cString: strerror(errno))])
            _ = close(connection)
        }
    }

    /// Closes the connection idle the longest, when one is not being used; true if it did.
    private func closeLongestIdle() -> Bool {
        closeOldest(since: { $0.idleSince.load(ordering: .relaxed) }) { $0.busySince.load(ordering: .relaxed) == 0 }
    }

    /// Closes the connection whose request has been arriving the longest, when one is not being
    /// used; true if it did. A web server sends requests whole: only a peer holding them open
    /// loses a connection here.
    private func closeLongestArriving() -> Bool {
        guard
            closeOldest(
                since: { $0.busySince.load(ordering: .relaxed) }, where: { $0.busySince.load(ordering: .relaxed) != 0 })
        else {
            return false
        }
        if let count = evicted.add() {
            log(
                .warning, "closed connections: full, their requests arriving the longest",
                ["count": String(count), "limit": String(table.capacity)])
        }
        return true
    }

    /// Closes, among the connections `eligible` says and not closing, the one whose `since` is
    /// oldest and that no thread is using; true if it did.
    private func closeOldest(
        since: (FastCGIConnection) -> Int64, where eligible: (FastCGIConnection) -> Bool
    ) -> Bool {
        let candidates = table.snapshot().filter { eligible($0) && !$0.isClosing.load(ordering: .relaxed) }
        for candidate in candidates.sorted(by: {
            since($0) < since($1)
        })
        where candidate.pending.compareExchange(expected: 0, desired: 1, ordering: .acquiringAndReleasing).exchanged {
            _ = close(candidate)
            return true
        }
        return false
    }

    /// Who the peer is (see `FastCGIConnection.peer`), or nil when it may not connect: on a unix
    /// socket with `FASTCGI_PEER_USERS` set, a user besides those, root and the worker's own.
    private func admittedPeer(_ fd: Int32) -> UInt64? {
        var pid: Int32 = 0
        var uid: UInt32 = 0
        switch CFastCGI_peerCredentials(fd, &pid, &uid) {
        case 1:
            if let users = options.peerUsers, uid != 0, uid != getuid(), !users.contains(uid) {
                if let count = strangers.add() {
                    log(
                        .warning, "refused connections: a user not in FASTCGI_PEER_USERS",
                        ["count": String(count), "uid": String(uid)])
                }
                return nil
            }
            return UInt64(UInt32(bitPattern: pid))
        case 0:
            var address: UInt32 = 0
            return CFastCGI_peerIPv4(fd, &address) == 1 ? 1 << 63 | UInt64(address) : 1 << 62
        default:
            return options.peerUsers == nil ? 0 : nil
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

    // MARK: Deadlines

    /// The sweeper: every quarter second (a tenth while stopping), closes connections whose
    /// request did not arrive whole in time (a second, while stopping), that finished closing,
    /// that stayed idle too long, or (stopping) that are idle at all.
    ///
    /// With a watchdog (`watchdogMilliseconds`, from systemd's `WATCHDOG_USEC`), it also says
    /// `WATCHDOG=1` twice per interval, but only while a page thread answers the heartbeat it asks
    /// for: a worker whose event loop is stuck stops saying it, and systemd restarts it.
    func sweepUntilStopped(watchdogMilliseconds: Int64?) {
        var sweeps = 0
        var heartbeatAskedAt: Int64 = 0
        var lastWatchdogNotice: Int64 = 0
        while true {
            let stopping = server.stopping.load(ordering: .acquiring)
            usleep(stopping ? 100_000 : 250_000)
            sweep(stopping: stopping)
            sweeps += 1
            // Every 30 s, the memory freed since goes back to the system (a burst's high water
            // mark would otherwise stay resident); it takes well under a millisecond.
            if sweeps % 120 == 0 { CFastCGI_releaseFreeMemory() }
            let now = Uptime.milliseconds()
            if let interval = watchdogMilliseconds, now - lastWatchdogNotice >= interval / 2 {
                if lastHeartbeat.load(ordering: .acquiring) >= heartbeatAskedAt {
                    ServiceNotice.send("WATCHDOG=1")
                    lastWatchdogNotice = now
                }
                heartbeatAskedAt = now
                poller.askForHeartbeat()
            }
        }
    }

    private func sweep(stopping: Bool) {
        let now = Uptime.milliseconds()
        let connections = table.snapshot()
        closeHoarded(connections)
        for connection in connections where isDue(connection, now: now, stopping: stopping) {
            guard
                connection.pending.compareExchange(expected: 0, desired: 1, ordering: .acquiringAndReleasing).exchanged
            else { continue }  // in use: not stalled
            // Owned now, so what it is doing cannot change: look again.
            guard isDue(connection, now: now, stopping: stopping) else {
                if connection.pending.wrappingSubtract(1, ordering: .acquiringAndReleasing).newValue > 0 {
                    pool.submit { [self] scratch in drive(connection, seen: 0, scratch: scratch, mayWait: true) }
                }
                continue
            }
            let wasReceiving =
                connection.busySince.load(ordering: .relaxed) != 0 && !connection.isClosing.load(ordering: .relaxed)
            _ = close(connection)
            if wasReceiving, let count = overdue.add() {
                log(
                    .warning, "closed connections: request not whole in time",
                    ["count": String(count), "seconds": String(options.requestSeconds)])
            }
        }
    }

    /// Closes the oldest requests still arriving from any peer that has more than
    /// `unfinishedPerPeer` of them (a web server sends each whole: this is someone holding them).
    private func closeHoarded(_ connections: [FastCGIConnection]) {
        var arriving: [UInt64: [FastCGIConnection]] = [:]
        for connection in connections
        where connection.busySince.load(ordering: .relaxed) != 0 && !connection.isClosing.load(ordering: .relaxed) {
            arriving[connection.peer, default: []].append(connection)
        }
        for (_, held) in arriving where held.count > options.unfinishedPerPeer {
            let oldest = held.sorted { $0.busySince.load(ordering: .relaxed) < $1.busySince.load(ordering: .relaxed) }
            var closed = 0
            for connection in oldest.prefix(held.count - options.unfinishedPerPeer)
            where connection.pending.compareExchange(expected: 0, desired: 1, ordering: .acquiringAndReleasing)
                .exchanged
            {
                _ = close(connection)
                closed += 1
            }
            if closed > 0, let count = hoarded.add(closed) {
                log(
                    .warning, "closed connections: too many requests arriving from one peer",
                    ["count": String(count), "limit": String(options.unfinishedPerPeer)])
            }
        }
    }

    private func isDue(_ connection: FastCGIConnection, now: Int64, stopping: Bool) -> Bool {
        let busySince = connection.busySince.load(ordering: .relaxed)
        if connection.isClosing.load(ordering: .relaxed) { return now - busySince > 2_000 }
        // A head trickling in: a web server sends it at once.
        if busySince != 0, !connection.hasHead.load(ordering: .relaxed),
            now - busySince > Int64(options.headSeconds) * 1000
        {
            return true
        }
        // Stopping, a request still arriving after a second is stalled (nginx sends one at once).
        let deadline = stopping ? min(options.requestSeconds, 1) : options.requestSeconds
        if busySince != 0 { return now - busySince > Int64(deadline) * 1000 }
        return stopping || now - connection.idleSince.load(ordering: .relaxed) > Int64(options.idleSeconds) * 1000
    }
}
