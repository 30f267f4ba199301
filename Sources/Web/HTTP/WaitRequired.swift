/// Thrown by a handler asked to answer without waiting (`Request.mayWait` false) when answering
/// needs a call to another service.
public struct WaitRequired: Error, Sendable {
    /// The error.
    public init() {}
}
