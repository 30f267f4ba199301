import Glibc
import Web

/// An answer as the records that carry it, built whole in one buffer so that it leaves in one
/// write: the CGI-style head (`Status:` line, headers, blank line) in one standard-output record
/// (several when it is longer than a record can be), the body in records of at most 65,535
/// bytes, the empty record that ends the output, and the end of the request.
/// - SeeAlso: the FastCGI 1.0 specification, 5.1 (responder) and 5.5 (`FCGI_END_REQUEST`).
enum AnswerRecords {
    /// Appends `response` (its body left out when `withBody` is false, for `HEAD`) for `requestID`.
    static func append(_ response: Response, withBody: Bool, requestID: Int, to out: inout GrowingBytes) {
        let headerAt = out.count
        FastCGIRecord.appendHeader(type: FastCGIRecord.stdout, requestID: requestID, contentLength: 0, to: &out)
        appendHead(of: response, to: &out)
        let headLength = out.count - headerAt - FastCGIRecord.headerLength
        if headLength <= FastCGIRecord.maxContentLength {
            out[headerAt + 4] = UInt8(truncatingIfNeeded: headLength >> 8)
            out[headerAt + 5] = UInt8(truncatingIfNeeded: headLength)
        } else {
            // Rare (dozens of cookies): the head is written again as records of a legal length;
            // its length cut to 16 bits had nginx read the head's text as records.
            let head = out.withBytes { Array($0[(headerAt + FastCGIRecord.headerLength)...]) }
            out.truncate(to: headerAt)
            head.withUnsafeBufferPointer { appendOutput($0, requestID: requestID, to: &out) }
        }
        if withBody {
            response.body.withUnsafeBufferPointer { appendOutput($0, requestID: requestID, to: &out) }
        }
        FastCGIRecord.appendHeader(type: FastCGIRecord.stdout, requestID: requestID, contentLength: 0, to: &out)
        appendEnd(requestID: requestID, protocolStatus: FastCGIRecord.requestComplete, to: &out)
    }

    /// Appends `bytes` as standard-output records of at most 65,535 bytes each.
    private static func appendOutput(_ bytes: UnsafeBufferPointer<UInt8>, requestID: Int, to out: inout GrowingBytes) {
        var start = 0
        while start < bytes.count {
            let end = min(start + FastCGIRecord.maxContentLength, bytes.count)
            FastCGIRecord.appendHeader(
                type: FastCGIRecord.stdout, requestID: requestID, contentLength: end - start, to: &out)
            out.append(UnsafeBufferPointer(rebasing: bytes[start..<end]))
            start = end
        }
    }

    /// Appends the end of a request: application status 0 and `protocolStatus`.
    static func appendEnd(requestID: Int, protocolStatus: UInt8, to out: inout GrowingBytes) {
        FastCGIRecord.appendHeader(type: FastCGIRecord.endRequest, requestID: requestID, contentLength: 8, to: &out)
        let body: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0, protocolStatus, 0, 0, 0)
        withUnsafeBytes(of: body) { out.append($0) }
    }

    /// Appends the head of a CGI-style response: `Status:` line, headers (`HeaderLine`: one whose
    /// value would split the head is dropped), the prepared ones, blank line. Prepared fields are
    /// the security headers: a `Content-Length` among the answer's own is the only one looked for.
    static func appendHead(of response: Response, to out: inout GrowingBytes) {
        out.append(response.status == 200 ? ok : statusLines[response.status] ?? statusLine(response.status))
        var hasLength = false
        for (name, value) in response.headers where HeaderLine.append(name: name, value: value, to: &out) {
            if !hasLength, isContentLength(name) { hasLength = true }
        }
        if let prepared = response.preparedHeaders { out.append(prepared.lines) }
        if !hasLength {
            out.append("Content-Length: " as StaticString)
            out.appendDecimal(response.body.count)
            out.append("\r\n" as StaticString)
        }
        out.append("\r\n" as StaticString)
    }

    private static func statusLine(_ status: Int) -> [UInt8] {
        Array("Status: \(status) \(Response.reason(status))\r\n".utf8)
    }

    /// The most common status line, without a look-up.
    private static let ok = statusLine(200)

    /// The status lines of the answers the product gives, made once.
    private static let statusLines: [Int: [UInt8]] = Dictionary(
        uniqueKeysWithValues: [200, 204, 302, 303, 400, 401, 403, 404, 405, 413, 415, 429, 500, 503].map {
            ($0, statusLine($0))
        })

    private static func isContentLength(_ name: String) -> Bool {
        name.utf8.count == 14 && name.lowercased() == "content-length"
    }
}
