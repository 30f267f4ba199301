extension String {
    /// Calls `body` with the string's UTF-8 bytes side by side: in place for a native string
    /// (nearly every string here), after one copy for a bridged one. `withUTF8` without its `var`.
    @inlinable
    public func withUTF8Bytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        var text = self
        return try text.withUTF8(body)
    }
}

extension Array where Element == UInt8 {
    /// Appends the UTF-8 bytes of `text` in one copy: the generic path through `String.UTF8View`
    /// goes byte by byte, and answers and log lines are built from a few dozen strings each.
    @inlinable
    public mutating func appendUTF8(_ text: String) { text.withUTF8Bytes { append(contentsOf: $0) } }
}
