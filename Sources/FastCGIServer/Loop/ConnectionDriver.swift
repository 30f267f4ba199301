import FoundationEssentials
import Glibc
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
    let overBudget = RateLimitedCount()
    /// The bytes of requests still arriving, on every connection.
    let heldBytes = HeldBytes()
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

    /// A page thread: takes events, several per wait (one system call for the events of many
    /// connections under load), until the server stops.
    func servePages(scratch: Scratch) {
        let tokens = UnsafeMutableBufferPointer<UInt64>.allocate(
            capacity: ConnectionPoller.eventsPerWait(pageThreads: options.pageThreads))
        defer { tokens.deallocate() }
        // The log lines of one wake-up's answers are written together, with the last answer
        // (see `send`) or before the next wait: one write(2) for a dozen requests under load.
        Log.holdLinesOnThisThread()
        while true {
            Log.writeHeldLines()
            switch poller.wait(into: tokens) {
            case .failure(let failure):
                // A worker whose threads cannot wait for requests is deaf: better to exit and be
                // restarted by the supervisor (systemd, or the run script's) than to linger.
                log(.error, "epoll_wait failed", ["error": String(cString: strerror(failure.errno))])
                _exit(70)  // an error line is written at once, after the lines held before it
            case .success(let count):
                // Every event taken is handled, a stop among them too: no other thread will take them.
                var stopped = false
                for (index, token) in tokens[..<count].enumerated() {
                    scratch.othersReady = index < count - 1
                    stopped = handle(poller.event(token), scratch: scratch) || stopped
                }
                if stopped { return Log.writeHeldLines() }
            }
        }
    }

    /// Handles one event on a page thread; true for the stop signal.
    private func handle(_ event: ConnectionPoller.Event, scratch: Scratch) -> Bool {
        switch event {
        case .stop:
            return true
        case .listener:
            acceptWaiting()
        case .heartbeat:
            lastHeartbeat.store(Uptime.milliseconds(), ordering: .releasing)
        case .connection(let token):
            guard let connection = table.connection(for: token),
                connection.pending.wrappingAdd(1, ordering: .acquiringAndReleasing).oldValue == 0
            else { return false }  // gone, or its owner will look again
            drive(connection, seen: 1, scratch: scratch, mayWait: false)
        }
        return false
    }

    enum Step {
        /// A request was answered. The next comes after its answer was read (a FastCGI web server
        /// does not send a request while one is open on the connection), so it will be reported.
        case answered
        /// Nothing more to do until more arrives.
        case needsMore
        /// What arrived filled the buffer and was dealt with: more may be waiting, and no event
        /// will report it (a refused body larger than the buffer, read and dropped).
        case readAgain
        /// The waiting pool owns the connection now.
        case handedOff
        /// The connection is closed.
        case closed
    }

    /// Drives an owned connection until nothing is left to do, then gives it up.
    func drive(_ connection: FastCGIConnection, seen: Int, scratch: Scratch, mayWait: Bool) {
        var seen = seen
        while true {
            let done = step(connection, seen: seen, scratch: scratch, mayWait: mayWait)
            // Bytes that came with the request answered (a web server that does not wait for
            // answers) may hold the next one, and no event will report them again.
            if done == .readAgain || (done == .answered && connection.isHolding) { continue }
            switch done {
            case .handedOff, .closed:
                return
            case .answered, .needsMore, .readAgain:
                let left = connection.pending.wrappingSubtract(seen, ordering: .acquiringAndReleasing).newValue
                if left == 0 { return }
                seen = left
            }
        }
    }

    private func step(_ connection: FastCGIConnection, seen: Int, scratch: Scratch, mayWait: Bool) -> Step {
        guard connection.isOpen else { return close(connection) }
        let count = connection.receive(into: scratch.buffer)
        if count == 0 { return close(connection) }  // the peer hung up
        if count < 0 { return errno == EAGAIN || errno == EINTR ? .needsMore : close(connection) }
        if connection.busySince.load(ordering: .relaxed) == 0 {
            connection.busySince.store(Uptime.milliseconds(), ordering: .relaxed)
        }
        let arrived = UnsafeRawBufferPointer(rebasing: scratch.buffer[..<count])
        switch connection.framing.judge(arrived) {
        case .incomplete where connection.framing.isSkippingBody:
            // A peer sending without end would keep this thread reading: its deadline still holds.
            let began = connection.busySince.load(ordering: .relaxed)
            if Uptime.milliseconds() - began > Int64(options.requestSeconds) * 1000 { return close(connection) }
            // Only the record not yet whole is kept: the body is dropped as it comes.
            connection.hold(UnsafeRawBufferPointer(rebasing: arrived[connection.framing.judgedLength...]))
            connection.framing.dropJudged()
            return count == scratch.buffer.count ? .readAgain : .needsMore
        case .skipped:
            return afterSkippedBody(connection, arrived: arrived)
        case .incomplete:
            connection.hold(arrived)
            if connection.framing.headIsWhole { connection.hasHead.store(true, ordering: .relaxed) }
            if heldBytes.current > options.maxHeldBytes { closeArrivingOverBudget() }
            return .needsMore
        case .complete:
            return answer(connection, arrived: arrived, seen: seen, scratch: scratch, mayWait: mayWait)
        case .bodyTooLarge:
            return refuseTooLarge(connection, arrived: arrived, scratch: scratch)
        case .headTooLarge:
            log(.warning, "closed a connection: request head over the limit", ["limit": String(options.maxHeadBytes)])
            return close(connection)
        case .malformed:
            log(.warning, "closed a connection: not a FastCGI request")
            return close(connection)
        }
    }

    /// Reads the whole request that has arrived and answers it here, or hands it to the waiting
    /// pool. Bytes after it (the web server does not send them before the answer) are kept.
    private func answer(
        _ connection: FastCGIConnection, arrived: UnsafeRawBufferPointer, seen: Int, scratch: Scratch, mayWait: Bool
    ) -> Step {
        let length = endOfRequest(connection, arrived: arrived)
        var received = ReceivedRequest()  // read in place (see ReceivedRequest.read)
        guard received.read(UnsafeRawBufferPointer(rebasing: arrived[..<length]), maxBodyBytes: options.maxBodyBytes)
        else {
            log(.warning, "closed a connection: not a FastCGI request")
            return close(connection)
        }
        guard received.role == FastCGIRecord.responderRole else { return refuseRole(received, on: connection) }
        server.inFlight.add(1, ordering: .relaxed)
        if mayWait {
            return send(server.responder.respond(to: received.head), for: received, on: connection, scratch: scratch)
        }
        if let response = server.responder.respondWithoutWaiting(to: received.head) {
            return send(response, for: received, on: connection, scratch: scratch)
        }
        pool.submit { [self, received] scratch in
            let response = server.responder.respond(to: received.head)
            let step = send(response, for: received, on: connection, scratch: scratch)
            if step == .answered { drive(connection, seen: seen, scratch: scratch, mayWait: true) }
        }
        return .handedOff
    }

    /// Answers 413 from the request's head alone, then reads the rest of the body and drops it
    /// (see `RequestFraming.skipBody`): the connection then serves the next request, or closes
    /// when the web server did not ask to keep it. The request's deadline still runs meanwhile.
    private func refuseTooLarge(_ connection: FastCGIConnection, arrived: UnsafeRawBufferPointer, scratch: Scratch)
        -> Step
    {
        let bodyStart = connection.framing.judgedLength  // the first body record not judged
        connection.hasHead.store(true, ordering: .relaxed)
        guard
            let received = ReceivedRequest.read(
                UnsafeRawBufferPointer(rebasing: arrived[..<bodyStart]), maxBodyBytes: 0, readingBody: false)
        else { return close(connection) }
        connection.framing.skipBody(thenClose: !received.keepsConnection)
        server.inFlight.add(1, ordering: .relaxed)
        let step = send(
            server.responder.respond(to: received.head, rejectedWith: .contentTooLarge), for: received,
            on: connection, scratch: scratch, keeping: true)
        guard step == .answered else { return step }
        connection.hold(UnsafeRawBufferPointer(rebasing: arrived[bodyStart...]))
        return .answered
    }

    /// The refused body's end arrived: the connection serves what follows, or closes.
    private func afterSkippedBody(_ connection: FastCGIConnection, arrived: UnsafeRawBufferPointer) -> Step {
        if connection.framing.closesAfterBody { return close(connection) }
        _ = endOfRequest(connection, arrived: arrived)
        return .answered
    }

    /// The request the framing judged whole (or the refused body it skipped) is over: the
    /// connection waits for its next, and keeps the bytes after it, which begin that next one.
    /// Returns the length of what ended. (In line: every request passes here.)
    @inline(__always)
    private func endOfRequest(_ connection: FastCGIConnection, arrived: UnsafeRawBufferPointer) -> Int {
        let length = connection.framing.judgedLength
        connection.framing.reset()
        connection.busySince.store(0, ordering: .relaxed)
        connection.hasHead.store(false, ordering: .relaxed)
        if length < arrived.count { connection.hold(UnsafeRawBufferPointer(rebasing: arrived[length...])) }
        return length
    }

    /// Ends a request for a role other than responder as the protocol says (`FCGI_UNKNOWN_ROLE`).
    private func refuseRole(_ received: ReceivedRequest, on connection: FastCGIConnection) -> Step {
        var out = GrowingBytes(capacity: received.managementAnswers.count + 16)
        out.append(received.managementAnswers)
        AnswerRecords.appendEnd(requestID: received.requestID, protocolStatus: FastCGIRecord.unknownRole, to: &out)
        guard out.withBytes({ connection.send($0) }), received.keepsConnection else { return close(connection) }
        return .answered
    }

    /// Writes the answer and ends the request in one write, without waiting: an answer that does
    /// not fit in the socket's buffer (a peer not reading) fails and closes the connection, as
    /// does a web server that did not ask to keep it.
    private func send(
        _ response: Response, for received: ReceivedRequest, on connection: FastCGIConnection, scratch: Scratch,
        keeping: Bool = false
    ) -> Step {
        // The thread's own buffer, kept from one answer to the next.
        scratch.output.removeAll()
        scratch.output.append(received.managementAnswers)
        AnswerRecords.append(
            response, withBody: received.head.method != "HEAD", requestID: received.requestID, to: &scratch.output)
        // The log lines held, this request's among them, go out before the wake-up's last
        // answer: a client that has its answer finds its line in the log.
        if !scratch.othersReady { Log.writeHeldLines() }
        let sent = scratch.output.withBytes { connection.send($0) }
        server.inFlight.subtract(1, ordering: .releasing)
        connection.idleSince.store(Uptime.milliseconds(), ordering: .relaxed)
        guard sent, received.keepsConnection || keeping else { return close(connection) }
        if server.stopping.load(ordering: .acquiring) { return close(connection) }
        return .answered
    }

    func close(_ connection: FastCGIConnection) -> Step {
        table.remove(connection.token)
        connection.close()
        return .closed
    }
}
