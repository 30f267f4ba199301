/// What a server hands requests to: the product or the dev tenant.
public protocol Responder: Sendable {
    /// Answers a request; never throws (errors become pages). May wait on other services.
    func respond(to request: Request) -> Response
    /// Answers a request the server refused before reading it (e.g. a body over the limit).
    /// Never waits on another service.
    func respond(to request: Request, rejectedWith error: WebError) -> Response
    /// Answers a request when that needs no wait on another service (Auth0, a shared store), on
    /// one of the server's few page threads; nil when it would wait, and the server then asks
    /// `respond(to:)` on a thread of the pool where waiting is cheap. Nothing may have been done
    /// that cannot be done twice when it answers nil.
    func respondWithoutWaiting(to request: Request) -> Response?
}

extension Responder {
    /// By default every request may wait: it is answered on the waiting pool.
    public func respondWithoutWaiting(to request: Request) -> Response? { nil }
}
