extension Array where Element == UInt8 {
    /// Appends the UTF-8 bytes of `text`, copied in one go when the string holds them side by side
    /// (native and small strings do): the generic path through `String.UTF8View` goes byte by
    /// byte, and answers and log lines are built from a few dozen strings each.
    @inlinable
    public mutating func appendUTF8(_ text: String) {
        if text.utf8.withContiguousStorageIfAvailable({ append(contentsOf: $0) }) == nil {
            append(contentsOf: text.utf8)
        }
    }
}
