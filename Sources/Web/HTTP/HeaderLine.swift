#if canImport(Glibc)
    import Glibc
#endif

/// One header field as it leaves in a CGI-style head: `Name: value` and CR LF. A value holding
/// CR, LF or NUL would split the head (a response-splitting attack): such a field is never sent.
public enum HeaderLine {
    /// True when `value` can be sent as it is.
    public static func isSafe(_ value: String) -> Bool {
        // Searched in place by libc's vectorised memchr: a page's head is about a kilobyte of
        // header values (the security policy alone is a quarter of it).
        value.withUTF8Bytes { bytes in
            guard let start = bytes.baseAddress else { return true }
            return memchr(start, 0x0D, bytes.count) == nil && memchr(start, 0x0A, bytes.count) == nil
                && memchr(start, 0, bytes.count) == nil
        }
    }

    /// Appends the field's line; false (nothing appended) when its value is not safe to send.
    @discardableResult
    package static func append(name: String, value: String, to out: inout GrowingBytes) -> Bool {
        guard isSafe(value) else { return false }
        out.append(name)
        out.append(": " as StaticString)
        out.append(value)
        out.append("\r\n" as StaticString)
        return true
    }
}
