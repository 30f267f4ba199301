internal import CFastCGI
import Foundation
import Web

/// One connection from the web server, and the libfcgi request structure that reads requests
/// from it. nginx keeps connections open (`fastcgi_keep_conn`) and sends one request at a time
/// on each; between requests the connection waits in the poller, holding no thread.
/// - SeeAlso: `FCGX_InitRequest`, `FCGX_Accept_r`, `FCGX_Finish_r`, `FCGX_Free`.
final class FastCGIConnection {
    private let raw: UnsafeMutablePointer<FCGX_Request>

    /// Takes ownership of an accepted socket.
    init(socket fd: Int32) {
        raw = .allocate(capacity: 1)
        // No listening socket: were libfcgi to find the connection closed, it must not go on
        // to accept another one itself (accept on -1 fails at once).
        FCGX_InitRequest(raw, -1, 0)
        CFastCGI_attachConnection(raw, fd)
    }

    deinit {
        FCGX_Free(raw, isOpen ? 1 : 0)
        raw.deallocate()
    }

    /// The socket, for the poller.
    var socket: Int32 { CFastCGI_connectionFd(raw) }

    /// False once libfcgi has closed the socket: the web server hung up or did not ask to keep it.
    var isOpen: Bool { socket >= 0 }

    /// Reads the next request's head from the connection (called when it has input); false when
    /// the web server hung up or sent something that is not a FastCGI request.
    func nextRequest() -> Bool { FCGX_Accept_r(raw) >= 0 }

    /// Ends the current request, flushing the output; closes the socket unless kept.
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
            if name.starts(with: Self.httpPrefix) {
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
            case "REMOTE_ADDR": request.remoteAddress = value()
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
