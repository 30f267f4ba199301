/// Whether a log value can be written as it is, judged on its bytes where they lie, eight at a
/// time: every record of every request passes its values through here.
enum LogValueBytes {
    /// Appends `value`, quoted when it needs to be (`Log.quoted`).
    static func appendQuoted(_ value: String, to line: inout GrowingBytes) {
        // Most values are plain: judged and copied where they lie, in one pass.
        let appended = value.withUTF8Bytes { bytes in
            guard !bytes.isEmpty, arePlain(bytes) else { return false }
            line.append(bytes)
            return true
        }
        if !appended { line.append(Log.quoted(value)) }
    }

    /// True when `value` can be written without quotes.
    static func isPlain(_ value: String) -> Bool { value.withUTF8Bytes { !$0.isEmpty && arePlain($0) } }

    /// Whether every byte is plain: eight at a time (a request id alone is 32 bytes), the last
    /// few in the word that ends the value (it overlaps bytes already judged plain); a value
    /// shorter than a word one by one.
    private static func arePlain(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count >= 8, let base = bytes.baseAddress else { return bytes.allSatisfy(isPlain) }
        let words = ByteWords.wordsPassing(in: bytes, isPlain)
        guard words < bytes.count else { return true }
        return words + 8 >= bytes.count
            && isPlain(UnsafeRawPointer(base).loadUnaligned(fromByteOffset: bytes.count - 8, as: UInt64.self))
    }

    /// Whether all eight bytes of `word` are plain.
    @inline(__always)
    private static func isPlain(_ word: UInt64) -> Bool {
        !ByteWords.hasByte(below: 0x21, in: word) && !ByteWords.hasByteAboveTilde(in: word)
            && !ByteWords.contains(0x22, in: word) && !ByteWords.contains(0x3D, in: word)
    }

    /// Printable ASCII but space, `"` and `=` (one subtraction tests the range).
    @inline(__always)
    private static func isPlain(_ byte: UInt8) -> Bool { byte &- 0x21 < 0x5E && byte != 0x22 && byte != 0x3D }
}
