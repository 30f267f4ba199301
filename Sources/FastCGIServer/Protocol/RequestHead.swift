import Web

/// Builds a request's head from its FastCGI parameters, one name-value pair at a time: `HTTP_*`
/// are kept as the server wrote them (`ReceivedHeaderBytes`, made into text when read), and only
/// the few CGI names the web layer uses are read. Names are matched as bytes and no string is
/// made for a parameter nobody reads (this runs on every request).
/// It writes into the request where it will stay (a head built aside and moved in was copied).
struct RequestHead {
    /// `CONTENT_LENGTH`, 0 when absent or empty.
    private(set) var contentLength = 0
    /// False once a parameter the worker reads is not as a web server sends it (a
    /// `CONTENT_LENGTH` that is not a non-negative decimal): the request is then refused whole.
    private(set) var isWellFormed = true
    private var queryString = ""
    /// Whether `REQUEST_URI` carried the query (else `QUERY_STRING` is the query).
    private var queryInURI = false

    /// Takes one parameter into `request` (in line where the pairs are read: some twenty a request).
    @inline(__always)
    mutating func add(
        name: UnsafeRawBufferPointer, value rawValue: UnsafeRawBufferPointer,
        headers: inout ReceivedHeaderBytes.Writer, to request: inout Request
    ) {
        let value = { Self.text(rawValue) }
        if name.count > 5, Self.sameBytes(name.baseAddress!, Self.httpPrefix.utf8Start, count: 5) {
            // The pair's name and value lie side by side: after `HTTP_`, one field.
            assert(rawValue.isEmpty || rawValue.baseAddress == name.baseAddress! + name.count)
            headers.append(
                nameAndValue: UnsafeRawBufferPointer(
                    start: name.baseAddress! + 5, count: name.count - 5 + rawValue.count),
                nameCount: name.count - 5)
            return
        }
        switch CGIName(name) {
        case .requestMethod: request.method = Self.literal(rawValue, in: Self.knownMethods) ?? value()
        case .requestURI:
            // Split on its bytes: the path and the query made as strings once each.
            if let mark = rawValue.firstIndex(of: UInt8(ascii: "?")) {
                request.path = String(decoding: UnsafeRawBufferPointer(rebasing: rawValue[..<mark]), as: UTF8.self)
                request.query = String(
                    decoding: UnsafeRawBufferPointer(rebasing: rawValue[(mark + 1)...]), as: UTF8.self)
                queryInURI = true
            } else {
                request.path = value()
            }
        case .queryString: queryString = value()
        case .requestID: request.requestID = value()
        case .remoteAddress: request.remoteAddress = value()
        case .contentType:
            if !rawValue.isEmpty { request.headers["content-type"] = value() }
        case .contentLength:
            guard let length = Self.decimal(rawValue) else {
                isWellFormed = false
                return
            }
            contentLength = length
            if contentLength > 0 { request.headers["content-length"] = String(contentLength) }
        case nil: break
        }
    }

    /// Sets the request's query from `QUERY_STRING` when `REQUEST_URI` had none (the path is
    /// `REQUEST_URI`'s, `/` without one), and its id from `X-Request-Id` when nginx gave none.
    func finish(_ request: inout Request) {
        if !queryInURI { request.query = queryString }
        if request.requestID.isEmpty { request.requestID = request.headers["x-request-id"] ?? "" }
    }

    private static let httpPrefix: StaticString = "HTTP_"

    /// A parameter's value as text; an empty one (a GET's query, type and length) is the empty
    /// literal, with nothing decoded.
    @inline(__always)
    private static func text(_ bytes: UnsafeRawBufferPointer) -> String {
        bytes.isEmpty ? "" : String(decoding: bytes, as: UTF8.self)
    }

    /// The methods nearly every request has, found by their bytes (no string made).
    private static let knownMethods: [(bytes: StaticString, text: String)] = [
        ("GET", "GET"), ("POST", "POST"), ("HEAD", "HEAD"),
    ]

    /// The text of the table's entry whose bytes are `bytes`, if one is: the literals a request
    /// names nearly always (its method), found with no string made.
    @inline(__always)
    private static func literal(_ bytes: UnsafeRawBufferPointer, in table: [(bytes: StaticString, text: String)])
        -> String?
    {
        // Two overlapping words a side where they fit (4 to 16 bytes), else byte by byte.
        let inWords = bytes.count >= 4 && bytes.count <= 16
        for known in table where known.bytes.utf8CodeUnitCount == bytes.count {
            let start = known.bytes.utf8Start
            if inWords
                ? sameBytes(start, bytes.baseAddress!, count: bytes.count)
                : UnsafeRawBufferPointer(start: start, count: bytes.count).elementsEqual(bytes)
            {
                return known.text
            }
        }
        return nil
    }

    /// A length as CGI gives it: ASCII digits only (no sign, no space), at most 15 of them, so it
    /// can never be negative or overflow; empty is 0 (no body). Nil for anything else.
    static func decimal(_ bytes: UnsafeRawBufferPointer) -> Int? {
        guard bytes.count <= 15 else { return nil }
        var value = 0
        for byte in bytes {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    /// Compares 4 to 16 bytes as two overlapping words each side, in line: a call to `memcmp` per
    /// parameter (some twenty a request) cost more than the comparison.
    @inline(__always)
    private static func sameBytes(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, count: Int) -> Bool {
        assert((4...16).contains(count))
        if count >= 8 {
            return a.loadUnaligned(as: UInt64.self) == b.loadUnaligned(as: UInt64.self)
                && a.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
                    == b.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
        }
        return a.loadUnaligned(as: UInt32.self) == b.loadUnaligned(as: UInt32.self)
            && a.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
                == b.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
    }

    /// The CGI parameters the web layer reads, recognised from their bytes.
    private enum CGIName {
        case requestMethod, requestURI, queryString, requestID, remoteAddress, contentType, contentLength

        /// Picks the one candidate by length and a telling byte, then compares it whole (nginx
        /// sends some twenty parameters a request; most match nothing here). Static strings: their
        /// bytes are in the binary, read without a reference count or a lazy global's check.
        @inline(__always)
        init?(_ bytes: UnsafeRawBufferPointer) {
            let candidate: (bytes: StaticString, name: CGIName)
            switch (bytes.count, bytes.first ?? 0) {
            case (14, UInt8(ascii: "R")): candidate = ("REQUEST_METHOD", .requestMethod)
            case (14, UInt8(ascii: "C")): candidate = ("CONTENT_LENGTH", .contentLength)
            case (12, UInt8(ascii: "Q")): candidate = ("QUERY_STRING", .queryString)
            case (12, UInt8(ascii: "C")): candidate = ("CONTENT_TYPE", .contentType)
            case (11, UInt8(ascii: "R")) where bytes[2] == UInt8(ascii: "Q"): candidate = ("REQUEST_URI", .requestURI)
            case (11, UInt8(ascii: "R")): candidate = ("REMOTE_ADDR", .remoteAddress)
            case (10, UInt8(ascii: "R")): candidate = ("REQUEST_ID", .requestID)
            default: return nil
            }
            guard RequestHead.sameBytes(candidate.bytes.utf8Start, bytes.baseAddress!, count: bytes.count) else {
                return nil
            }
            self = candidate.name
        }
    }
}
