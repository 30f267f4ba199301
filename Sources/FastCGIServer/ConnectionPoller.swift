internal import CFastCGI
import Glibc

/// An epoll set shared by the serving threads. It reports the listening socket, each kept
/// connection that has a request waiting (to one thread at a time: a reported fd is not
/// reported again until re-armed), and the stop signal, which wakes every thread at once.
struct ConnectionPoller: Sendable {
    enum Event {
        case listener
        case connection(FastCGIConnection)
        case stop
        /// epoll itself failed (a bug, not a bad peer), with errno.
        case failed(Int32)
    }

    private let poller: Int32
    private let stopEvent: Int32
    let listener: Int32

    // Connection tokens are object addresses, never 1 or 2.
    private static let listenerToken: UInt64 = 1
    private static let stopToken: UInt64 = 2

    init(listener: Int32) throws {
        guard CFastCGI_setNonBlocking(listener) == 0 else { throw FastCGIError("cannot make the socket non-blocking") }
        poller = CFastCGI_pollerCreate()
        stopEvent = CFastCGI_eventCreate()
        self.listener = listener
        guard poller >= 0, stopEvent >= 0,
            CFastCGI_pollerWatchAlways(poller, stopEvent, Self.stopToken) == 0,
            CFastCGI_pollerWatchOnce(poller, listener, Self.listenerToken, 1) == 0
        else { throw FastCGIError("cannot set up epoll: \(String(cString: strerror(errno)))") }
    }

    /// Waits for the next ready fd.
    func next() -> Event {
        let token = CFastCGI_pollerNext(poller)
        switch token {
        case Self.listenerToken: return .listener
        case Self.stopToken: return .stop
        case 0: return .failed(errno)
        default:
            let address = UnsafeRawPointer(bitPattern: UInt(token))!
            return .connection(Unmanaged<FastCGIConnection>.fromOpaque(address).takeUnretainedValue())
        }
    }

    /// Reports the listening socket again (after its waiting connections were accepted).
    func rearmListener() {
        _ = CFastCGI_pollerWatchOnce(poller, listener, Self.listenerToken, 0)
    }

    /// Starts watching a new connection; the poller keeps it alive until `forget`.
    /// False (and the connection is not kept) if epoll refused it.
    func watch(_ connection: FastCGIConnection) -> Bool {
        let token = Unmanaged.passRetained(connection)
        let address = UInt64(UInt(bitPattern: token.toOpaque()))
        if CFastCGI_pollerWatchOnce(poller, connection.socket, address, 1) == 0 { return true }
        token.release()
        return false
    }

    /// Reports the connection again when its next request arrives.
    func rearm(_ connection: FastCGIConnection) -> Bool {
        let address = UInt64(UInt(bitPattern: Unmanaged.passUnretained(connection).toOpaque()))
        return CFastCGI_pollerWatchOnce(poller, connection.socket, address, 0) == 0
    }

    /// Lets go of a connection whose socket is closed (closing removed it from the epoll set).
    func forget(_ connection: FastCGIConnection) {
        Unmanaged.passUnretained(connection).release()
    }

    /// Wakes every thread waiting in `next` with `.stop`, now and from then on.
    func stop() { CFastCGI_eventSignal(stopEvent) }
}
