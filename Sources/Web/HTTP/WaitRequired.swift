/// Thrown by a handler asked to answer without waiting (`Responder.respondWithoutWaiting`) when
/// answering needs a call to another service: the request is then answered where waiting is cheap.
public struct WaitRequired: Error, Sendable {
    /// The error.
    public init() {}
}
