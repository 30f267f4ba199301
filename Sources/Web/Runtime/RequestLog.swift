/// The log as one request writes it: every record carries the request's id first, so a handler
/// never passes it by hand.
public struct RequestLog: Sendable {
    /// The worker's log.
    public let log: Log
    /// The request's id (shared with the front server's log); empty when it sent none.
    public let requestID: String

    /// `log`, for the request `requestID`.
    public init(_ log: Log, requestID: String) {
        self.log = log
        self.requestID = requestID
    }

    /// Writes one record, `id` first, when `level` is at or above the log's minimum.
    public func callAsFunction(_ level: Log.Level, _ message: String, _ fields: KeyValuePairs<String, String> = [:]) {
        log.write(level, message, requestID: requestID, fields)
    }
}
