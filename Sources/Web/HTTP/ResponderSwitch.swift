import Locking

/// Answers with `pending` until `become(_:)` hands it the responder it was waiting for, then
/// with that one for good: a worker serves a clear answer (503) while what it needs at start,
/// the tenant, is away, instead of serving nothing. The switch happens once; a request reads it
/// under an uncontended lock.
public final class ResponderSwitch: Responder, Sendable {
    private let pending: any Responder
    /// The responder switched to, once it is there.
    private let target = Lock<(any Responder)?>(nil)

    /// A switch answering with `pending` for now.
    public init(pending: any Responder) { self.pending = pending }

    /// Answers with `responder` from now on; false (and nothing changes) if it already switched.
    @discardableResult
    public func become(_ responder: any Responder) -> Bool {
        target.withLock { target in
            guard target == nil else { return false }
            target = responder
            return true
        }
    }

    private var current: any Responder { target.withLock { $0 } ?? pending }

    /// Answers with the current responder.
    public func respond(to request: Request) -> Response { current.respond(to: request) }

    /// Answers with the current responder.
    public func respond(to request: Request, rejectedWith error: WebError) -> Response {
        current.respond(to: request, rejectedWith: error)
    }

    /// Answers with the current responder.
    public func respondWithoutWaiting(to request: Request) -> Response? { current.respondWithoutWaiting(to: request) }
}
