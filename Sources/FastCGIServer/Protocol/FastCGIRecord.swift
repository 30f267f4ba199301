import Web

/// FastCGI 1.0's record layout (section 3.3) and the numbers this worker reads and writes.
/// - SeeAlso: the FastCGI 1.0 specification, 3.3 (records), 5 (application roles), 8 (types and constants).
enum FastCGIRecord {
    static let version: UInt8 = 1
    static let headerLength = 8
    /// The most content one record carries (its length is 16 bits).
    static let maxContentLength = 65_535

    // Record types (8).
    static let beginRequest: UInt8 = 1
    static let abortRequest: UInt8 = 2
    static let endRequest: UInt8 = 3
    static let params: UInt8 = 4
    static let stdin: UInt8 = 5
    static let stdout: UInt8 = 6
    static let getValues: UInt8 = 9
    static let getValuesResult: UInt8 = 10

    /// The only role this worker plays (5.1).
    static let responderRole = 1
    /// `FCGI_KEEP_CONN` in a begin record's flags: the web server keeps the connection.
    static let keepConnection: UInt8 = 1
    // End-request protocol statuses (8).
    static let requestComplete: UInt8 = 0
    static let unknownRole: UInt8 = 3

    /// One record header's fields.
    struct Header {
        let type: UInt8
        let requestID: Int
        let contentLength: Int
        let paddingLength: Int

        /// The header at the start of `bytes` (at least 8 of them).
        init(_ bytes: UnsafeRawBufferPointer) {
            type = bytes[1]
            requestID = Int(bytes[2]) << 8 | Int(bytes[3])
            contentLength = Int(bytes[4]) << 8 | Int(bytes[5])
            paddingLength = Int(bytes[6])
        }

        var recordLength: Int { FastCGIRecord.headerLength + contentLength + paddingLength }
    }

    /// Appends a record header (no padding), its eight bytes in one copy.
    static func appendHeader(type: UInt8, requestID: Int, contentLength: Int, to out: inout GrowingBytes) {
        let header: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (
            version, type, UInt8(truncatingIfNeeded: requestID >> 8), UInt8(truncatingIfNeeded: requestID),
            UInt8(truncatingIfNeeded: contentLength >> 8), UInt8(truncatingIfNeeded: contentLength), 0, 0
        )
        withUnsafeBytes(of: header) { out.append($0) }
    }
}
