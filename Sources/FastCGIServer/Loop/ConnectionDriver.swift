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
    let server: FastCGIServer
    let table: ConnectionTable
    let poller: ConnectionPoller
    let pool: WaitingPool
    let refusals = RateLimitedCount()
    let overdue = RateLimitedCount()
    let strangers = RateLimitedCount()
    let hoarded = RateLimitedCount()
    let evicted = RateLimitedCount()
    /// When a page thread last answered the heartbeat (milliseconds, `Uptime`).
    let lastHeartbeat = Atomic<Int64>(0)

    init(server: FastCGIServer, table: ConnectionTable, poller: ConnectionPoller, pool: WaitingPool) {
        self.server = server
        self.table = table
        self.poller = poller
        self.pool = pool
    }

    var options: FastCGIServer.Options { server.options }
    var log: Log { server.log }

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

    enum Step {
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
    func drive(_ connection: FastCGIConnection, seen: Int, scratch: Scratch, mayWait: Bool) {
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

    func close(_ connection: FastCGIConnection) -> Step {
        table.remove(connection.token)
        connection.close()
        return .closed
    }

    /// Forgets a connection libfcgi has closed.
    func forget(_ connection: FastCGIConnection) -> Step {
        table.remove(connection.token)
        return .closed
    }
}
