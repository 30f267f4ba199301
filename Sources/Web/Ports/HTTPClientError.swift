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
