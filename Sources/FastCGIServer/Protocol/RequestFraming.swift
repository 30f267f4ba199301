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
        /// The rest of a refused body has been read and dropped, to its end (see `skipBody`).
        case skipped
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
    private var skipping = false
    private var closesAfterSkipping = false

    /// True once the request's parameters (its head) have all arrived.
    package var headIsWhole: Bool { headEnded }

    /// True while the rest of a refused body is being read and dropped.
    package var isSkippingBody: Bool { skipping }

    /// True when the connection is to close once the body is skipped (the web server did not
    /// ask to keep it).
    package var closesAfterBody: Bool { closesAfterSkipping }

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
        if skipping { return skip(bytes) }
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

    /// After a request was answered 413 from its head, reads the rest of its body (from the
    /// record at the start of the bytes judged next) and drops it, to the body's empty record.
    /// A web server that keeps the connection (`FCGI_KEEP_CONN`) sends the body whole whatever
    /// the answer, and then the next request: a worker that stopped reading and shut its side
    /// had nginx send that next request into a closed connection (502).
    package mutating func skipBody(thenClose: Bool) {
        reset()
        skipping = true
        closesAfterSkipping = thenClose
    }

    /// The records judged so far were dropped: what is judged next starts at a record again.
    package mutating func dropJudged() { judged = 0 }

    /// Walks whole standard-input records without keeping them, to the empty one.
    private mutating func skip(_ bytes: UnsafeRawBufferPointer) -> Verdict {
        while bytes.count - judged >= 8 {
            let header = UnsafeRawBufferPointer(rebasing: bytes[judged..<(judged + 8)])
            let contentLength = Int(header[4]) << 8 | Int(header[5])
            let recordLength = 8 + contentLength + Int(header[6])
            guard header[0] == 1, header[1] == FastCGIRecord.stdin || header[1] == FastCGIRecord.abortRequest else {
                return .malformed
            }
            guard bytes.count - judged >= recordLength else { return .incomplete }
            judged += recordLength
            if header[1] == FastCGIRecord.stdin, contentLength == 0 { return .skipped }
        }
        return .incomplete
    }
}
