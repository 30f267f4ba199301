internal import CFastCGI
import Glibc

/// An epoll set shared by the page threads. It reports the listening socket (to one thread at a
/// time: it is not reported again until re-armed), each connection that received bytes or was
/// hung up on (by its table token, edge-triggered), the heartbeat the watchdog asks for (to one
/// thread), and the stop signal, which wakes every thread at once.
struct ConnectionPoller: Sendable {
    enum Event {
        case listener
        case connection(token: UInt64)
        /// The sweeper asked whether a page thread is still taking events (see `askForHeartbeat`).
        case heartbeat
        case stop
    }

    /// epoll itself failed (a bug, not a bad peer).
    struct EpollFailure: Error {
        let errno: Int32
    }

    private let poller: Int32
    private let stopEvent: Int32
    private let heartbeatEvent: Int32
    let listener: Int32

    private static let listenerToken: UInt64 = 1
    private static let stopToken: UInt64 = 2
    private static let heartbeatToken: UInt64 = 3

    init(listener: Int32) throws {
        let flags = fcntl(listener, F_GETFL)
        guard flags >= 0, fcntl(listener, F_SETFL, flags | O_NONBLOCK) == 0 else {
            throw FastCGIError("cannot make the socket non-blocking")
        }
        poller = epoll_create1(Int32(EPOLL_CLOEXEC))
        stopEvent = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        heartbeatEvent = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        self.listener = listener
        guard poller >= 0, stopEvent >= 0, heartbeatEvent >= 0,
            CFastCGI_pollerWatchAlways(poller, stopEvent, Self.stopToken) == 0,
            CFastCGI_pollerWatchOnce(poller, heartbeatEvent, Self.heartbeatToken, 1) == 0,
            CFastCGI_pollerWatchOnce(poller, listener, Self.listenerToken, 1) == 0
        else { throw FastCGIError("cannot set up epoll: \(String(cString: strerror(errno)))") }
    }

    /// The most events a page thread takes per wait (the size of its `tokens`) when there are
    /// `pageThreads`: it answers them one after the other, so with others beside it more would
    /// keep the last waiting behind the first while another thread may be idle (16). Alone, it
    /// answers every event anyway, and each wait it takes fewer of is one more wake-up, log write
    /// and context switch (64, as the library-free limit takes; measured in ARCHITECTURE.md).
    static func eventsPerWait(pageThreads: Int) -> Int { pageThreads > 1 ? 16 : 64 }

    /// Waits until something is ready and writes up to `tokens.count` tokens into `tokens`: one
    /// system call for the events of several connections. Returns how many, or the failure.
    func wait(into tokens: UnsafeMutableBufferPointer<UInt64>) -> Result<Int, EpollFailure> {
        let count = CFastCGI_pollerWait(poller, tokens.baseAddress, Int32(tokens.count))
        return count < 0 ? .failure(EpollFailure(errno: errno)) : .success(Int(count))
    }

    /// What a token from `wait` stands for.
    func event(_ token: UInt64) -> Event {
        switch token {
        case Self.listenerToken: return .listener
        case Self.stopToken: return .stop
        case Self.heartbeatToken:
            var count: UInt64 = 0
            _ = read(heartbeatEvent, &count, 8)
            return .heartbeat
        default: return .connection(token: token)
        }
    }

    /// Reports the listening socket again (after its waiting connections were accepted).
    func rearmListener() {
        _ = CFastCGI_pollerWatchOnce(poller, listener, Self.listenerToken, 0)
    }

    /// Stops reporting the listening socket: connections wait in its queue for the next worker.
    func stopAccepting() {
        _ = CFastCGI_pollerForget(poller, listener)
    }

    /// Starts watching a connection under its token; false (errno set) if epoll refused it.
    func watch(_ connection: FastCGIConnection) -> Bool {
        CFastCGI_pollerWatchEdges(poller, connection.socket, connection.token) == 0
    }

    /// Has one page thread report `.heartbeat` when it next takes an event: a thread that does
    /// shows the event loop still turns.
    func askForHeartbeat() {
        Self.signal(heartbeatEvent)
        _ = CFastCGI_pollerWatchOnce(poller, heartbeatEvent, Self.heartbeatToken, 0)
    }

    /// Wakes every thread waiting in `wait` with `.stop`, now and from then on.
    func stop() { Self.signal(stopEvent) }

    /// Makes an eventfd readable.
    private static func signal(_ event: Int32) {
        var one: UInt64 = 1
        _ = write(event, &one, 8)
    }
}
