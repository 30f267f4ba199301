import Synchronization

/// Counts the outbound HTTP calls a request makes, so its log line can say how many calls to
/// the tenant it cost.
public struct CountingHTTPClient: HTTPClient {
    private let wrapped: any HTTPClient

    /// Counts the calls made through `wrapped`.
    public init(_ wrapped: any HTTPClient) { self.wrapped = wrapped }

    /// Sends through the wrapped client and counts the call for the request being answered.
    public func send(_ request: HTTPClientRequest) throws -> HTTPClientResponse {
        OutboundCalls.current?.add()
        return try wrapped.send(request)
    }
}
