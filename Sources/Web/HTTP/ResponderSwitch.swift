import Locking
import Synchronization

/// Answers with `pending` until `become(_:)` hands it the responder it was waiting for, then
/// with that one for good: a worker serves a clear answer (503) while what it needs at start,
/// the tenant, is away, instead of serving nothing. The switch happens once; a request reads it
/// with one atomic load.
public final class ResponderSwitch: Responder, @unchecked Sendable {
    private let pending: any Responder
    private let ready = Atomic<Bool>(false)
    private let switching = Lock(false)
    // Written once, before `ready` is set with release ordering; read only after `ready` is seen
    // with acquire ordering.
    nonisolated(unsafe) private var target: (any Responder)?

    /// A switch answering with `pending` for now.
    public init(pending: any Responder) { self.pending = pending }

    /// Answers with `responder` from now on; false (and nothing changes) if it already switched.
    @discardableResult
    public func become(_ responder: any Responder) -> Bool {
        switching.withLock { switched in
            guard !switched else { return false }
            switched = true
            target = responder
            ready.store(true, ordering: .releasing)
            return true
        }
    }

    private var current: any Responder { ready.load(ordering: .acquiring) ? target! : pending }

    /// Answers with the current responder.
    public func respond(to request: Request) -> Response { current.respond(to: request) }

    /// Answers with the current responder.
    public func respond(to request: Request, rejectedWith error: WebError) -> Response {
        current.respond(to: request, rejectedWith: error)
    }

    /// Answers with the current responder.
    public func respondWithoutWaiting(to request: Request) -> Response? { current.respondWithoutWaiting(to: request) }
}
