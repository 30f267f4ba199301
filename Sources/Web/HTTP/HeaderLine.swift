/// One header field as it leaves in a CGI-style head: `Name: value` and CR LF. A value holding
/// CR, LF or NUL would split the head (a response-splitting attack): such a field is never sent.
public enum HeaderLine {
    /// True when `value` can be sent as it is.
    public static func isSafe(_ value: String) -> Bool { HeaderBytes.holdsNoLineBreakOrNUL(value) }

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
