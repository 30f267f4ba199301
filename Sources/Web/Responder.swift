/// What a server hands requests to: the product or the dev tenant.
public protocol Responder: Sendable {
    /// Answers a request; never throws (errors become pages).
    func respond(to request: Request) -> Response
    /// Answers a request the server refused before reading it (e.g. a body over the limit).
    func respond(to request: Request, rejectedWith error: WebError) -> Response
}
