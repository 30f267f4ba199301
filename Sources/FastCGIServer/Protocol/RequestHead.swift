import Glibc
import Web

/// Builds a request's head from its FastCGI parameters, one name-value pair at a time: `HTTP_*`
/// become lower-case headers, and only the few CGI names the web layer uses are read. Names are
/// matched as bytes and no string is made for a parameter nobody reads (this runs on every request).
struct RequestHead {
    private(set) var request = Request(method: "GET", path: "/", headers: Dictionary(minimumCapacity: 16))
    /// `CONTENT_LENGTH`, 0 when absent or not a number.
    private(set) var contentLength = 0
    private var uri = "/"
    private var queryString = ""

    /// Takes one parameter.
    mutating func add(name: UnsafeRawBufferPointer, value rawValue: UnsafeRawBufferPointer) {
        let value = { String(decoding: rawValue, as: UTF8.self) }
        if name.starts(with: Self.httpPrefix) {
            request.headers[Self.headerName(UnsafeRawBufferPointer(rebasing: name[5...]))] = value()
            return
        }
        switch CGIName(name) {
        case .requestMethod: request.method = value()
        case .requestURI: uri = value()
        case .queryString: queryString = value()
        case .requestID: request.requestID = value()
        case .remoteAddress: request.remoteAddress = value()
        case .contentType:
            if !rawValue.isEmpty { request.headers["content-type"] = value() }
        case .contentLength:
            contentLength = Int(value()) ?? 0
            if contentLength > 0 { request.headers["content-length"] = String(contentLength) }
        case nil: break
        }
    }

    /// The request, its path and query taken from `REQUEST_URI` (else `QUERY_STRING`).
    mutating func finish() -> Request {
        if let mark = uri.utf8.firstIndex(of: UInt8(ascii: "?")) {
            request.path = String(uri[..<mark])
            request.query = String(uri[uri.index(after: mark)...])
        } else {
            request.path = uri
            request.query = queryString
        }
        if request.requestID.isEmpty { request.requestID = request.headers["x-request-id"] ?? "" }
        return request
    }

    private static let httpPrefix = Array("HTTP_".utf8)

    /// `ACCEPT_LANGUAGE` → `accept-language`, written straight into the string's storage.
    private static func headerName(_ name: UnsafeRawBufferPointer) -> String {
        String(unsafeUninitializedCapacity: name.count) { out in
            for (index, byte) in name.enumerated() {
                out[index] = byte == UInt8(ascii: "_") ? UInt8(ascii: "-") : byte | 0x20
            }
            return name.count
        }
    }

    /// The CGI parameters the web layer reads, recognised from their bytes.
    private enum CGIName {
        case requestMethod, requestURI, queryString, requestID, remoteAddress, contentType, contentLength

        private static let requestMethodBytes = Array("REQUEST_METHOD".utf8)
        private static let requestURIBytes = Array("REQUEST_URI".utf8)
        private static let queryStringBytes = Array("QUERY_STRING".utf8)
        private static let requestIDBytes = Array("REQUEST_ID".utf8)
        private static let remoteAddressBytes = Array("REMOTE_ADDR".utf8)
        private static let contentTypeBytes = Array("CONTENT_TYPE".utf8)
        private static let contentLengthBytes = Array("CONTENT_LENGTH".utf8)

        /// Picks the one candidate by length and a telling byte, then compares it whole (nginx
        /// sends some twenty parameters a request; most match nothing here).
        init?(_ bytes: UnsafeRawBufferPointer) {
            let candidate: (bytes: [UInt8], name: CGIName)
            switch (bytes.count, bytes.first ?? 0) {
            case (14, UInt8(ascii: "R")): candidate = (Self.requestMethodBytes, .requestMethod)
            case (14, UInt8(ascii: "C")): candidate = (Self.contentLengthBytes, .contentLength)
            case (12, UInt8(ascii: "Q")): candidate = (Self.queryStringBytes, .queryString)
            case (12, UInt8(ascii: "C")): candidate = (Self.contentTypeBytes, .contentType)
            case (11, UInt8(ascii: "R")) where bytes[2] == UInt8(ascii: "Q"):
                candidate = (Self.requestURIBytes, .requestURI)
            case (11, UInt8(ascii: "R")): candidate = (Self.remoteAddressBytes, .remoteAddress)
            case (10, UInt8(ascii: "R")): candidate = (Self.requestIDBytes, .requestID)
            default: return nil
            }
            // memcmp: the generic elementsEqual goes byte by byte through iterators.
            guard candidate.bytes.withUnsafeBytes({ memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) }) == 0
            else { return nil }
            self = candidate.name
        }
    }
}
