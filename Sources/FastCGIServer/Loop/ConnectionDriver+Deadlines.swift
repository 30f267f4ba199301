internal import CFastCGI
import FoundationEssentials
import Synchronization
import Web

/// The sweeper: deadlines for arriving requests, idle connections and hoarding peers, and the
/// watchdog's heartbeat.
extension ConnectionDriver {
    /// The sweeper: every quarter second (a tenth while stopping), closes connections whose
    /// request did not arrive whole in time (a second, while stopping),
    /// that stayed idle too long, or (stopping) that are idle at all.
    ///
    /// With a watchdog (`watchdogMilliseconds`, from systemd's `WATCHDOG_USEC`), it also says
    /// `WATCHDOG=1` twice per interval, but only while a page thread answers the heartbeat it asks
    /// for: a worker whose event loop is stuck stops saying it, and systemd restarts it.
    func sweepUntilStopped(watchdogMilliseconds: Int64?) {
        var sweeps = 0
        var upgradeNoted = false
        var heartbeatAskedAt: Int64 = 0
        var lastWatchdogNotice: Int64 = 0
        while true {
            let stopping = server.stopping.load(ordering: .acquiring)
            usleep(stopping ? 100_000 : 250_000)
            sweep(stopping: stopping)
            sweeps += 1
            // Every 30 s, the memory freed since goes back to the system (a burst's high water
            // mark would otherwise stay resident); it takes well under a millisecond.
            if sweeps % 120 == 0 { malloc_trim(0) }
            // Every 5 s: an upgrade that replaced the program without restarting this process
            // (an unattended one stopped at a question, say) is said, not left silent.
            if sweeps % 20 == 0, !upgradeNoted, let path = RunningProgram.replacedPath() {
                upgradeNoted = true
                log(.warning, "the program was replaced on disk: this worker still runs the old one", ["path": path])
                ServiceStatus.note("; a newer \(path) is installed but not running: restart this worker")
            }
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
            let wasReceiving = Self.isArriving(connection)
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
        for connection in connections where Self.isArriving(connection) {
            arriving[connection.peer, default: []].append(connection)
        }
        for (_, held) in arriving where held.count > options.unfinishedPerPeer {
            let closed = closeArrivingLongest(held) { $0 < held.count - options.unfinishedPerPeer }
            if closed > 0, let count = hoarded.add(closed) {
                log(
                    .warning, "closed connections: too many requests arriving from one peer",
                    ["count": String(count), "limit": String(options.unfinishedPerPeer)])
            }
        }
    }

    /// Closes the requests arriving the longest until what all connections hold is within
    /// `maxHeldBytes` again (the one calling holds its own connection: it is not among them).
    func closeArrivingOverBudget() {
        let arriving = table.snapshot().filter(Self.isArriving)
        let closed = closeArrivingLongest(arriving) { _ in heldBytes.current > options.maxHeldBytes }
        if closed > 0, let count = overBudget.add(closed) {
            log(
                .warning, "closed connections: requests arriving held more than their memory budget",
                ["count": String(count), "limit": String(options.maxHeldBytes)])
        }
    }

    /// Closes `arriving`'s connections that no thread is using, those arriving the longest first,
    /// while `more` (given how many were closed so far) says so; returns how many it closed.
    private func closeArrivingLongest(_ arriving: [FastCGIConnection], while more: (Int) -> Bool) -> Int {
        var closed = 0
        for connection in arriving.sorted(by: {
            $0.busySince.load(ordering: .relaxed) < $1.busySince.load(ordering: .relaxed)
        }) where more(closed) {
            guard
                connection.pending.compareExchange(expected: 0, desired: 1, ordering: .acquiringAndReleasing).exchanged
            else { continue }
            _ = close(connection)
            closed += 1
        }
        return closed
    }

    /// True while a request is arriving on `connection` (or the rest of a refused body).
    private static func isArriving(_ connection: FastCGIConnection) -> Bool {
        connection.busySince.load(ordering: .relaxed) != 0
    }

    private func isDue(_ connection: FastCGIConnection, now: Int64, stopping: Bool) -> Bool {
        let busySince = connection.busySince.load(ordering: .relaxed)
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
