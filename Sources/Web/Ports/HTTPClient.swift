/// Sends HTTP requests synchronously; each worker thread may call it at once.
public protocol HTTPClient: Sendable {
    /// Sends a request; throws `HTTPClientError` when no answer came.
    func send(_ request: HTTPClientRequest) throws -> HTTPClientResponse
}
