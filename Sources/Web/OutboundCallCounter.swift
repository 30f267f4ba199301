import PerThread

/// Counts the outbound HTTP calls made on the current thread, so the request log line can say
/// how many calls to the tenant a request cost (a worker thread serves one request at a time).
public struct CountingHTTPClient: HTTPClient {
    private let wrapped: any HTTPClient

    /// Counts the calls made through `wrapped`.
    public init(_ wrapped: any HTTPClient) { self.wrapped = wrapped }

    /// Sends through the wrapped client and counts the call for this thread's request.
    public func send(_ request: HTTPClientRequest) throws -> HTTPClientResponse {
        OutboundCalls.add()
        return try wrapped.send(request)
    }
}

/// The per-thread count behind `CountingHTTPClient`.
public enum OutboundCalls {
    private final class Count { var value = 0 }
    private static let counts = ThreadLocal { Count() }

    private static var current: Count { counts.value() }

    /// The calls made on this thread since the last `reset()`.
    public static var count: Int { current.value }

    /// Starts counting again (at the start of each request).
    public static func reset() { current.value = 0 }

    static func add() { current.value += 1 }
}
