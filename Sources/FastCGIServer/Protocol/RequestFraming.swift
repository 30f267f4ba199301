/// Tells from the FastCGI record headers alone whether the bytes a connection has received so far
/// hold one whole request: its begin record, its parameters to their empty record, and its
/// standard input to its empty record. Judged on every arrival, so it never looks inside a
/// record: `ReceivedRequest` reads the contents once the request is whole.
/// - SeeAlso: the FastCGI 1.0 specification, 3.3 (records) and 5 (application roles).
package struct RequestFraming {
    /// What the bytes so far amount to.
    package enum Verdict: Equatable {
        /// More is to come.
        case incomplete
        /// A whole request: its records can be read.
        case complete
        /// The parameters are whole but the body is over the limit: answer 413 without reading on.
        case bodyTooLarge
        /// The parameters (the request's head) are over the limit.
        case headTooLarge
        /// Not a FastCGI request as a web server sends one.
        case malformed
    }

    /// The most parameter bytes a request may have.
    let maxHeadBytes: Int
    /// The most body (standard input) bytes a request may have.
    let maxBodyBytes: Int

    private var judged = 0  // bytes of the whole records counted below
    private var began = false
    private var headEnded = false
    private var headBytes = 0
    private var bodyBytes = 0

    /// True once the request's parameters (its head) have all arrived.
    package var headIsWhole: Bool { headEnded }

    /// The bytes of the records judged so far: the whole request's length once it is complete.
    package var judgedLength: Int { judged }

    /// Judges requests with these limits.
    package init(maxHeadBytes: Int, maxBodyBytes: Int) {
        self.maxHeadBytes = maxHeadBytes
        self.maxBodyBytes = maxBodyBytes
    }

    /// The most bytes a request within the limits can take on the wire (record headers and
    /// padding included, for records of a reasonable size): what must be looked at to judge it.
    var capacity: Int { maxHeadBytes + maxBodyBytes + Self.recordOverheadAllowance }

    /// Record headers and padding a request may add to its contents: 2,048 records' worth, far
    /// more than nginx's few records of up to 32 KB, far less than one-byte records would need.
    static let recordOverheadAllowance = 2048 * 16

    /// Judges the bytes received so far on the connection (always from the request's first byte;
    /// records already judged are not judged again).
    package mutating func judge(_ bytes: UnsafeRawBufferPointer) -> Verdict {
        while bytes.count - judged >= 8 {
            let header = UnsafeRawBufferPointer(rebasing: bytes[judged..<(judged + 8)])
            guard header[0] == 1 else { return .malformed }  // FCGI_VERSION_1
            let type = header[1]
            let requestID = Int(header[2]) << 8 | Int(header[3])
            let contentLength = Int(header[4]) << 8 | Int(header[5])
            let recordLength = 8 + contentLength + Int(header[6])
            let isWhole = bytes.count - judged >= recordLength
            switch (type, requestID) {
            case (FastCGIRecord.beginRequest, 1...):
                guard !began, contentLength == 8 else { return .malformed }
            case (FastCGIRecord.params, 1...):
                guard began, !headEnded else { return .malformed }
                if headBytes + contentLength > maxHeadBytes { return .headTooLarge }
            case (FastCGIRecord.stdin, 1...):
                guard headEnded else { return .malformed }
                if bodyBytes + contentLength > maxBodyBytes { return .bodyTooLarge }
            case (FastCGIRecord.abortRequest, 1...), (FastCGIRecord.getValues, 0):
                break  // read with the request (an abort changes nothing for a whole request)
            default:
                return .malformed
            }
            if judged + recordLength > capacity { return .malformed }  // contents cut into tiny records
            guard isWhole else { return .incomplete }
            judged += recordLength
            switch type {
            case FastCGIRecord.beginRequest: began = true
            case FastCGIRecord.params where contentLength == 0: headEnded = true
            case FastCGIRecord.params: headBytes += contentLength
            case FastCGIRecord.stdin where contentLength == 0: return .complete
            case FastCGIRecord.stdin: bodyBytes += contentLength
            default: break
            }
        }
        return .incomplete
    }

    /// Starts over for the connection's next request.
    package mutating func reset() {
        self = RequestFraming(maxHeadBytes: maxHeadBytes, maxBodyBytes: maxBodyBytes)
    }
}
