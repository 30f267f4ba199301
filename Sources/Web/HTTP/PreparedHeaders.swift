/// Header fields that many answers carry alike (the security headers), with the lines that send
/// them made once: an answer refers to them instead of copying a dozen strings into its own
/// fields and having each checked and encoded again.
public final class PreparedHeaders: Sendable {
    /// The fields, in the order they are sent.
    public let fields: [(name: String, value: String)]
    /// Every field's `HeaderLine`, end to end (a field whose value is not safe is left out).
    public let lines: [UInt8]

    /// Fields to send after an answer's own.
    public init(_ fields: [(name: String, value: String)]) {
        self.fields = fields
        var lines = GrowingBytes(capacity: 1024)
        for field in fields { HeaderLine.append(name: field.name, value: field.value, to: &lines) }
        self.lines = lines.array()
    }

    /// The value of the first field of `name`, matched without regard to case.
    public func value(of name: String) -> String? {
        fields.first { Response.sameName($0.name, name) }?.value
    }
}
