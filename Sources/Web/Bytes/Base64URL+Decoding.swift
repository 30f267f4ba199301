import ExtrasBase64

/// Base64url decoding into a buffer lent to the caller: a session cookie opened on every page
/// view makes no array for its sealed bytes.
extension Base64URL {
    @usableFromInline static let options: Base64.DecodingOptions = [.base64UrlAlphabet, .omitPaddingCharacter]

    /// Decodes text into a buffer lent to `body`, on the stack when small (a session cookie
    /// opened on every page view makes no array for its sealed bytes); nil when it is not
    /// base64url. Inlinable: generic over what `body` makes, it runs specialised where it is used.
    @inlinable
    public static func withDecoded<Result>(
        _ text: some StringProtocol, _ body: (UnsafeBufferPointer<UInt8>) -> Result?
    ) -> Result? {
        // A native string's bytes are read in place.
        if let decoded = text.utf8.withContiguousStorageIfAvailable({ withDecoded(bytes: $0, body) }) {
            return decoded
        }
        return Array(text.utf8).withUnsafeBufferPointer { withDecoded(bytes: $0, body) }
    }

    @inlinable
    static func withDecoded<Result>(
        bytes input: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> Result?
    ) -> Result? {
        let capacity = max(1, Base64.decodedLength(bytesCount: input.count))
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { output -> Result? in
            var span = output.mutableSpan
            guard let count = try? Base64.decode(bytes: input.span, into: &span, options: options) else { return nil }
            return body(UnsafeBufferPointer(rebasing: output[..<count]))
        }
    }
}
