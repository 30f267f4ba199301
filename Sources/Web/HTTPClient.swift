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

/// An answer to an outbound request.
public struct HTTPClientResponse: Sendable {
    /// The status code.
    public var status: Int
    /// Header fields, names in lower case, in order received.
    public var headers: [(name: String, value: String)]
    /// The body.
    public var body: [UInt8]

    /// An answer with this status, headers and body.
    public init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The first value of a header by lower-case name.
    public func header(_ name: String) -> String? { headers.first { $0.name == name }?.value }

    /// Every value of a header by lower-case name.
    public func headers(named name: String) -> [String] { headers.filter { $0.name == name }.map(\.value) }
}

/// Why an outbound call got no answer at all.
public struct HTTPClientError: Error, Equatable, CustomStringConvertible {
    /// Why: the time limit passed, no connection could be made, the answer was over the size limit, or anything else.
    public enum Kind: Sendable, Equatable { case timeout, connect, tooLarge, other }
    /// The kind of failure.
    public let kind: Kind
    /// The transport's own words; holds no header or body.
    public let detail: String

    /// A failure of `kind`, with the transport's words.
    public init(_ kind: Kind, _ detail: String) {
        self.kind = kind
        self.detail = detail
    }

    /// `kind: detail`, for the log.
    public var description: String { "\(kind): \(detail)" }
}

/// Sends HTTP requests synchronously; each worker thread may call it at once.
public protocol HTTPClient: Sendable {
    /// Sends a request; throws `HTTPClientError` when no answer came.
    func send(_ request: HTTPClientRequest) throws -> HTTPClientResponse
}
