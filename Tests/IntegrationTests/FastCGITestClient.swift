import Foundation
import TestSupport

/// Speaks FastCGI to a worker directly, as nginx does (responder role, kept connection), for
/// tests of the worker's own socket handling.
/// - SeeAlso: the FastCGI 1.0 specification: records, name-value pairs, `FCGI_KEEP_CONN`.
struct FastCGITestClient {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let fd: Int32
    private var nextID: UInt16 = 1

    /// A client on a connected socket; reads give up after `timeoutSeconds`.
    init(socket fd: Int32, timeoutSeconds: Int = 15) {
        self.fd = fd
        var limit = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Writes bytes as they are.
    func send(_ bytes: [UInt8]) throws {
        guard write(fd, bytes, bytes.count) == bytes.count else { throw Failure(description: "write failed") }
    }

    /// Reads one answer: what the worker wrote to stdout up to its end-request record.
    func readAnswer() throws -> String {
        var stdout: [UInt8] = []
        while true {
            let header = try read(8)
            let count = Int(header[4]) << 8 | Int(header[5])
            let content = try read(count)
            _ = try read(Int(header[6]))  // padding
            switch header[1] {
            case 6: stdout += content  // FCGI_STDOUT
            case 3: return String(decoding: stdout, as: UTF8.self)  // FCGI_END_REQUEST
            default: continue
            }
        }
    }

    /// Reads records up to the end of a request: how many stdout bytes came, and the end
    /// record's protocol status.
    func readEnd() throws -> (stdout: Int, protocolStatus: UInt8) {
        var stdout = 0
        while true {
            let header = try read(8)
            let content = try read(Int(header[4]) << 8 | Int(header[5]))
            _ = try read(Int(header[6]))
            if header[1] == 6 { stdout += content.count }
            if header[1] == 3 { return (stdout, content[4]) }
        }
    }

    /// Sends a GET for `path` on the kept connection and returns what the
    /// worker wrote to stdout (the CGI-style head and body).
    mutating func get(_ path: String, headers: [(String, String)] = []) throws -> String {
        let id = nextID
        nextID += 1
        let cgiHeaders = headers.map { ("HTTP_" + $0.0.uppercased().replacingOccurrences(of: "-", with: "_"), $0.1) }
        let params = [("REQUEST_METHOD", "GET"), ("REQUEST_URI", path), ("HTTP_HOST", "127.0.0.1")] + cgiHeaders
        try send(FastCGIRecords.request(id: Int(id), params: params))
        return try readAnswer()
    }

    private func read(_ count: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var got = 0
        while got < count {
            let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + got, count - got) }
            guard n > 0 else { throw Failure(description: "connection ended after \(got) of \(count) bytes") }
            got += n
        }
        return bytes
    }

    /// One record with `content` (no padding).
}
