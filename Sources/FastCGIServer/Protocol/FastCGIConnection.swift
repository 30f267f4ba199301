import FoundationEssentials
import Glibc
import Synchronization

/// One connection from the web server. nginx keeps connections open (`fastcgi_keep_conn`) and
/// sends one request at a time on each. The socket never blocks: what arrives is read into the
/// driving thread's buffer and judged (`RequestFraming`); a request still arriving is kept here
/// until the rest comes, a whole one is read from its records (`ReceivedRequest`) and answered
/// with one write (`AnswerRecords`).
///
/// A connection is driven by one thread at a time, its owner: the thread that raises `pending`
/// from zero (see `ConnectionDriver`). Everything not atomic here is the owner's.
final class FastCGIConnection: @unchecked Sendable {
    /// The socket; -1 once closed.
    private(set) var socket: Int32
    /// What has arrived of a request not yet whole (or of the next one), between two events.
    private var held: [UInt8] = []
    /// Events reported and not yet handled; the thread that raises it from zero owns the connection.
    let pending = Atomic<Int>(0)
    /// When the request now arriving sent its first byte (milliseconds, `Uptime`); 0 between
    /// requests.
    let busySince = Atomic<Int64>(0)
    /// When the last request was answered (or the connection accepted), for closing idle ones.
    let idleSince = Atomic<Int64>(0)
    /// True once the request now arriving has its whole head (parameters); false between requests.
    let hasHead = Atomic<Bool>(false)
    /// Who connected: the peer's user id on a unix socket (every process a user forks is one
    /// peer), its IPv4 address over TCP (high bit set), for the cap on requests one peer may
    /// hold open.
    let peer: UInt64
    /// Where the bytes held here are counted with every other connection's.
    private let budget: HeldBytes?
    /// The token the poller reports this connection by (set once, by the table).
    nonisolated(unsafe) var token: UInt64 = 0
    /// What has arrived of the request now being received. Touched only by the thread driving
    /// the connection (one at a time, handed over through the poller or the waiting pool's
    /// queue): no run-time exclusivity check on each access, two or three a request.
    @exclusivity(unchecked) var framing: RequestFraming

    /// Takes ownership of an accepted (non-blocking) socket.
    init(socket fd: Int32, framing: RequestFraming, peer: UInt64 = 0, budget: HeldBytes? = nil) {
        socket = fd
        self.framing = framing
        self.peer = peer
        self.budget = budget
        idleSince.store(Uptime.milliseconds(), ordering: .relaxed)
    }

    deinit { close() }

    /// False once the socket is closed.
    var isOpen: Bool { socket >= 0 }

    /// Puts what this connection holds at the start of `buffer` and reads after it what has
    /// arrived: the byte count in `buffer`, 0 when the peer hung up, -1 (errno set) when nothing
    /// is held and nothing came, or the socket failed. The bytes are the connection's again only
    /// through `hold`.
    func receive(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        var count = held.count
        if count > 0 {
            held.withUnsafeBytes { buffer.copyMemory(from: $0) }
            release()
        }
        while count < buffer.count {
            let asked = buffer.count - count
            let got = read(socket, buffer.baseAddress! + count, asked)
            if got > 0 {
                count += got
                if got < asked { break }  // the socket is drained: its next bytes are a new event
                continue
            }
            if got == 0 { return 0 }
            if errno == EINTR { continue }
            if errno == EAGAIN || errno == EWOULDBLOCK { return count > 0 ? count : -1 }
            return -1
        }
        return count
    }

    /// True while bytes of a request not yet answered are kept.
    var isHolding: Bool { !held.isEmpty }

    /// Keeps bytes that arrived for a request not yet whole, until the next event.
    func hold(_ bytes: UnsafeRawBufferPointer) {
        budget?.add(bytes.count - held.count)
        held = Array(bytes)
    }

    /// Drops what is held, counting it off the budget.
    private func release() {
        budget?.add(-held.count)
        held = []
    }

    /// Writes `bytes` whole without waiting, from where they lie: false when the socket would not
    /// take them all at once (a peer not reading) or failed.
    func send(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let wrote = Glibc.send(socket, bytes.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL))
            if wrote > 0 {
                sent += wrote
            } else if wrote < 0, errno == EINTR {
                continue
            } else {
                return false
            }
        }
        return true
    }

    /// Closes the socket.
    func close() {
        guard socket >= 0 else { return }
        Glibc.close(socket)
        socket = -1
        release()
    }
}
