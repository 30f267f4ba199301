#if canImport(Glibc)
    import Glibc
#endif

/// Counts the outbound HTTP calls made on the current thread, so the request log line can say
/// how many calls to the tenant a request cost (a worker thread serves one request at a time).
public struct CountingHTTPClient: HTTPClient {
    private let wrapped: any HTTPClient

    public init(_ wrapped: any HTTPClient) { self.wrapped = wrapped }

    public func send(_ request: HTTPClientRequest) throws -> HTTPClientResponse {
        OutboundCalls.add()
        return try wrapped.send(request)
    }
}

/// The per-thread count behind `CountingHTTPClient`.
public enum OutboundCalls {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// The calls made on this thread since the last `reset()`.
    public static var count: Int { Int(bitPattern: pthread_getspecific(key)) }

    /// Starts counting again (at the start of each request).
    public static func reset() { pthread_setspecific(key, nil) }

    static func add() { pthread_setspecific(key, UnsafeRawPointer(bitPattern: count + 1)) }
}
