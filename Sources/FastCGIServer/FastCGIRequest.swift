internal import CFastCGI
import Foundation
import Web

/// Owns one libfcgi request structure, bound to one thread for its life.
/// - SeeAlso: `FCGX_InitRequest`, `FCGX_Accept_r`, `FCGX_Finish_r`, `FCGX_Free`.
final class FastCGIRequest {
    private let raw: UnsafeMutablePointer<FCGX_Request>

    init(listeningSocket fd: Int32) {
        raw = .allocate(capacity: 1)
        FCGX_InitRequest(raw, fd, 0)
    }

    deinit {
        FCGX_Free(raw, 1)
        raw.deallocate()
    }

    /// Waits for the next request; false when the listening socket is gone (shutdown).
    func accept() -> Bool { FCGX_Accept_r(raw) >= 0 }

    /// Ends the current request, flushing the output.
    func finish() { FCGX_Finish_r(raw) }

    /// The current request's head, built from its FastCGI parameters in one pass: `HTTP_*`
    /// become lower-case headers, and only the few CGI names the web layer uses are read.
    func head() -> (request: Request, contentLength: Int) {
        var request = Request(method: "GET", path: "/")
        var uri = "/"
        var queryString = ""
        var contentLength = 0
        guard var entry = raw.pointee.envp else { return (request, 0) }
        while let cString = entry.pointee {
            entry += 1
            let length = strlen(cString)
            let bytes = UnsafeRawBufferPointer(start: cString, count: length).bindMemory(to: UInt8.self)
            guard let equals = bytes.firstIndex(of: UInt8(ascii: "=")) else { continue }
            let name = UnsafeBufferPointer(rebasing: bytes[..<equals])
            let value = { String(decoding: UnsafeBufferPointer(rebasing: bytes[(equals + 1)...]), as: UTF8.self) }
            if name.starts(with: FastCGIRequest.httpPrefix) {
                let headerName = String(
                    decoding: name.dropFirst(5).map { $0 == UInt8(ascii: "_") ? UInt8(ascii: "-") : $0 | 0x20 },
                    as: UTF8.self)
                request.headers[headerName] = value()
                continue
            }
            switch String(decoding: name, as: UTF8.self) {
            case "REQUEST_METHOD": request.method = value()
            case "REQUEST_URI": uri = value()
            case "QUERY_STRING": queryString = value()
            case "REQUEST_ID": request.requestID = value()
            case "CONTENT_TYPE":
                let type = value()
                if !type.isEmpty { request.headers["content-type"] = type }
            case "CONTENT_LENGTH":
                contentLength = Int(value()) ?? 0
                if contentLength > 0 { request.headers["content-length"] = String(contentLength) }
            default: break
            }
        }
        if let mark = uri.utf8.firstIndex(of: UInt8(ascii: "?")) {
            request.path = String(uri[..<mark])
            request.query = String(uri[uri.index(after: mark)...])
        } else {
            request.path = uri
            request.query = queryString
        }
        if request.requestID.isEmpty { request.requestID = request.headers["x-request-id"] ?? "" }
        return (request, contentLength)
    }

    private static let httpPrefix = Array("HTTP_".utf8)

    /// Reads up to `limit` bytes of the body.
    func readBody(limit: Int) -> [UInt8] {
        guard limit > 0 else { return [] }
        var body = [UInt8](repeating: 0, count: limit)
        var total = 0
        while total < limit {
            let read = body.withUnsafeMutableBufferPointer { buffer in
                buffer.baseAddress!.advanced(by: total).withMemoryRebound(to: CChar.self, capacity: limit - total) {
                    FCGX_GetStr($0, Int32(limit - total), raw.pointee.in)
                }
            }
            if read <= 0 { break }
            total += Int(read)
        }
        body.removeSubrange(total...)
        return body
    }

    /// Writes bytes to the response stream.
    func write(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                _ = FCGX_PutStr($0, Int32(buffer.count), raw.pointee.out)
            }
        }
    }
}
