extension String {
    /// Calls `body` with the string's UTF-8 bytes side by side: in place for a native string
    /// (nearly every string here), after one copy for a bridged one. `withUTF8` without its `var`.
    @inlinable
    public func withUTF8Bytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        var text = self
        return try text.withUTF8(body)
    }
}
