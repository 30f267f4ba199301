internal import CFastCGI
import FoundationEssentials
import Glibc
import Synchronization
import Web

/// Accepting: every waiting connection is taken at once, a full table makes room, and peers
/// the settings refuse are hung up on.
extension ConnectionDriver {
    /// Accepts every connection waiting, watches each, and re-arms the listening socket.
    func acceptWaiting() {
        defer { poller.rearmListener() }
        while true {
            let fd = CFastCGI_acceptConnection(poller.listener)
            if fd >= 0 {
                if let peer = refusedPeer(fd) {
                    log(.warning, "refused a connection", ["peer": peer, "setting": "FCGI_WEB_SERVER_ADDRS"])
                    Glibc.close(fd)
                    continue
                }
                guard let peer = admittedPeer(fd) else {
                    Glibc.close(fd)
                    continue
                }
                admit(FastCGIConnection(socket: fd, framing: server.newFraming(), peer: peer, budget: heldBytes))
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
        // Owned by this thread until it is watched: once in the table, the sweeper could
        // otherwise close it (all of them, when the worker stops) while it is being watched.
        connection.pending.store(1, ordering: .relaxed)
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
            return
        }
        // Given up as a driver gives it up: events that came meanwhile were left to this owner.
        if connection.pending.wrappingSubtract(1, ordering: .acquiringAndReleasing).newValue > 0 {
            pool.submit { [self] scratch in drive(connection, seen: 0, scratch: scratch, mayWait: true) }
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

    /// Closes, among the connections `eligible` says, the one whose `since` is
    /// oldest and that no thread is using; true if it did.
    private func closeOldest(
        since: (FastCGIConnection) -> Int64, where eligible: (FastCGIConnection) -> Bool
    ) -> Bool {
        let candidates = table.snapshot().filter(eligible)
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
            return 1 << 61 | UInt64(uid)
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
}
