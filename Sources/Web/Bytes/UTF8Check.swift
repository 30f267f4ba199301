/// Whether bytes are valid UTF-8: ASCII (tokens, ids and most names) recognised a word at a
/// time, anything else checked in full by the standard library.
public enum UTF8Check {
    /// True when `bytes` are valid UTF-8.
    @inlinable
    public static func isValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let words = ByteWords.wordsPassing(in: bytes, ByteWords.isASCII)
        var index = words
        while index < bytes.count, bytes[index] < 0x80 { index += 1 }
        return index == bytes.count || isValidBeyondASCII(UnsafeBufferPointer(rebasing: bytes[index...]))
    }

    @usableFromInline
    static func isValidBeyondASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        String(validating: bytes, as: UTF8.self) != nil
    }
}
