#if canImport(Glibc)
    import Glibc
#endif

/// The cookies of a request's `Cookie` header, parsed on bytes.
public struct Cookies: Sendable {
    /// Name and value pairs in the order sent; values are not decoded. A value is a slice of the
    /// header, not a copy: a session cookie is ~2 KB, read on every page view.
    public let pairs: [(name: String, value: Substring)]

    /// Parses `a=b; c=d`. Pieces without `=` and names that are not RFC 6265 tokens are skipped.
    /// Works on the header's contiguous bytes: it runs on every request.
    public init(header: String) {
        var pairs: [(name: String, value: Substring)] = []
        // Offsets fall on ASCII separators, so they are character boundaries too.
        let utf8 = header.utf8
        func text(_ range: Range<Int>) -> Substring {
            let start = utf8.index(utf8.startIndex, offsetBy: range.lowerBound)
            return header[start..<utf8.index(start, offsetBy: range.count)]
        }
        header.withUTF8Bytes { bytes in
            SetCookie.tokenTable.withUnsafeBufferPointer { tokens in
                var start = 0
                while start < bytes.count {
                    let end = Cookies.index(of: UInt8(ascii: ";"), in: bytes, from: start)
                    if let span = Cookies.span(bytes, start, end, tokens: tokens) {
                        // A name is a token (ASCII), made from its bytes where they lie.
                        let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[span.name]), as: UTF8.self)
                        pairs.append((name, text(span.value)))
                    }
                    start = end + 1
                }
            }
        }
        self.pairs = pairs
    }

    /// Where a name and its value lie in the header's bytes.
    private struct Span {
        let name: Range<Int>
        let value: Range<Int>
    }

    /// Where `byte` next occurs, or the end. memchr: a session cookie is ~2 KB of one value,
    /// scanned on every page view.
    private static func index(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard let base = bytes.baseAddress, start < bytes.count,
            let found = memchr(base + start, Int32(byte), bytes.count - start)
        else { return bytes.count }
        return UnsafeRawPointer(found) - UnsafeRawPointer(base)
    }

    /// One `name=value` piece between two offsets, trimmed and unquoted; nil when it is not one
    /// (`tokens`: `SetCookie.tokenTable`, read in place).
    private static func span(
        _ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, tokens: UnsafeBufferPointer<Bool>
    ) -> Span? {
        var equals = start
        while equals < end && bytes[equals] != UInt8(ascii: "=") { equals += 1 }
        guard equals < end else { return nil }
        let (nameStart, nameEnd) = trim(bytes, start, equals)
        var (valueStart, valueEnd) = trim(bytes, equals + 1, end)
        if valueEnd - valueStart >= 2, bytes[valueStart] == UInt8(ascii: "\""),
            bytes[valueEnd - 1] == UInt8(ascii: "\"")
        {
            valueStart += 1
            valueEnd -= 1
        }
        guard nameEnd > nameStart else { return nil }
        for index in nameStart..<nameEnd where !tokens[Int(bytes[index])] { return nil }
        return Span(name: nameStart..<nameEnd, value: valueStart..<valueEnd)
    }

    private static func trim(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> (Int, Int) {
        var (start, end) = (start, end)
        while start < end && (bytes[start] == 0x20 || bytes[start] == 0x09) { start += 1 }
        while end > start && (bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09) { end -= 1 }
        return (start, end)
    }

    /// The first value sent under a name.
    public subscript(_ name: String) -> String? {
        value(of: name).map(String.init)
    }

    /// The first value sent under a name, as a slice of the header (no copy).
    public func value(of name: String) -> Substring? {
        pairs.first { $0.name == name }?.value
    }

    /// How many cookies of this name were sent (a duplicate may be an attack).
    public func count(of name: String) -> Int { pairs.reduce(0) { $0 + ($1.name == name ? 1 : 0) } }

    /// The cookies whose names start with a prefix.
    public func named(withPrefix prefix: String) -> [(name: String, value: String)] {
        pairs.filter { $0.name.hasPrefix(prefix) }.map { ($0.name, String($0.value)) }
    }
}
