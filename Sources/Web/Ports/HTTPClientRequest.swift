/// An outbound HTTP request.
public struct HTTPClientRequest: Sendable {
    /// `GET`, `POST`, `PATCH`, …
    public var method: String
    /// The absolute URL.
    public var url: String
    /// Header fields to send.
    public var headers: [(name: String, value: String)]
    /// The body to send.
    public var body: [UInt8]
    /// The whole call's time limit, connecting included.
    public var timeoutSeconds: Double
    /// The most bytes of answer (body, and headers apart) accepted; past it the call fails with
    /// `HTTPClientError.Kind.tooLarge`. 1 MiB by default: a tenant's answers are a few KB.
    public var maxResponseBytes: Int

    /// A request; `timeoutSeconds` limits the whole call.
    public init(
        method: String, url: String, headers: [(name: String, value: String)] = [], body: [UInt8] = [],
        timeoutSeconds: Double = 10, maxResponseBytes: Int = 1 << 20
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeoutSeconds = timeoutSeconds
        self.maxResponseBytes = maxResponseBytes
    }
}
