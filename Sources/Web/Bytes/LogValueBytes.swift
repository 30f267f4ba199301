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

    /// Whether every byte is plain: eight at a time (a request id alone is 32 bytes), then one by one.
    private static func arePlain(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let words = ByteWords.wordsPassing(in: bytes) { word in
            !ByteWords.hasByte(below: 0x21, in: word) && !ByteWords.hasByteAboveTilde(in: word)
                && !ByteWords.contains(0x22, in: word) && !ByteWords.contains(0x3D, in: word)
        }
        return bytes[words...].allSatisfy(isPlain)
    }

    /// Printable ASCII but space, `"` and `=` (one subtraction tests the range).
    @inline(__always)
    private static func isPlain(_ byte: UInt8) -> Bool { byte &- 0x21 < 0x5E && byte != 0x22 && byte != 0x3D }
}
