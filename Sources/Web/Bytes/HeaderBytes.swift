#if canImport(Glibc)
    import Glibc
#endif

/// The byte scans behind the header types: where each `name=value` piece of a `Cookie` header
/// lies (`Cookies`), whether a text is all of a byte class (`SetCookie`), whether a value may be
/// sent on a header line (`HeaderLine`). A session cookie is ~2 KB of one value, scanned on every
/// page view: separators are found by libc's vectorised memchr and the pieces read in place.
enum HeaderBytes {
    /// Hands `body` each piece's name (made from its bytes) and where its value lies, as UTF-8
    /// offsets into `header`, in order. Pieces without `=` and names with a byte `tokens` refuses
    /// are skipped.
    static func forEachPiece(of header: String, tokens: [Bool], _ body: (String, Range<Int>) -> Void) {
        header.withUTF8Bytes { bytes in
            tokens.withUnsafeBufferPointer { tokens in
                var start = 0
                while start < bytes.count {
                    let end = index(of: UInt8(ascii: ";"), in: bytes, from: start)
                    if let span = span(bytes, start, end, tokens: tokens) {
                        // A name is a token (ASCII), made from its bytes where they lie.
                        body(
                            String(decoding: UnsafeBufferPointer(rebasing: bytes[span.name]), as: UTF8.self), span.value
                        )
                    }
                    start = end + 1
                }
            }
        }
    }

    /// Where a name and its value lie in the header's bytes.
    private struct Span {
        let name: Range<Int>
        let value: Range<Int>
    }

    /// Where `byte` next occurs, or the end.
    private static func index(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard let base = bytes.baseAddress, start < bytes.count,
            let found = memchr(base + start, Int32(byte), bytes.count - start)
        else { return bytes.count }
        return UnsafeRawPointer(found) - UnsafeRawPointer(base)
    }

    /// One `name=value` piece between two offsets, trimmed and unquoted; nil when it is not one.
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

    /// True when every byte of `text` is one `table` admits (a table of 256).
    static func all(_ text: String, in table: [Bool]) -> Bool {
        text.withUTF8Bytes { bytes in
            table.withUnsafeBufferPointer { table in
                for byte in bytes where !table[Int(byte)] { return false }
                return true
            }
        }
    }

    /// True when `text` holds none of CR, LF and NUL, searched in place by libc's vectorised
    /// memchr: a page's head is about a kilobyte of header values.
    static func holdsNoLineBreakOrNUL(_ text: String) -> Bool {
        text.withUTF8Bytes { bytes in
            guard let start = bytes.baseAddress else { return true }
            return memchr(start, 0x0D, bytes.count) == nil && memchr(start, 0x0A, bytes.count) == nil
                && memchr(start, 0, bytes.count) == nil
        }
    }
}
