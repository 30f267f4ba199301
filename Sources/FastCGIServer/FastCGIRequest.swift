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

    /// Every FastCGI parameter of the current request, as CGI names and values.
    func parameters() -> [String: String] {
        var params: [String: String] = [:]
        guard var entry = raw.pointee.envp else { return params }
        while let cString = entry.pointee {
            // Each entry is "NAME=value"; split at the first '='.
            if let equals = strchr(cString, Int32(UInt8(ascii: "="))) {
                let nameLength = equals - cString
                let name = cString.withMemoryRebound(to: UInt8.self, capacity: nameLength) {
                    String(decoding: UnsafeBufferPointer(start: $0, count: nameLength), as: UTF8.self)
                }
                params[name] = String(cString: equals + 1)
            }
            entry += 1
        }
        return params
    }

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
