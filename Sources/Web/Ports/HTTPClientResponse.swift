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
}
