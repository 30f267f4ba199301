extension String {
    /// Calls `body` with the string's UTF-8 bytes side by side: in place for a native string
    /// (nearly every string here), from the stack for a small one, after one copy for a bridged
    /// one. Borrows the string: `withUTF8` on a `var` copy retained and released it each call.
    @inlinable
    public func withUTF8Bytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        if let result = try utf8.withContiguousStorageIfAvailable(body) { return result }
        var text = self
        return try text.withUTF8(body)
    }
}
