/// HTML escaping on bytes, for text and attribute values alike.
public enum HTMLEscaping {
    /// Appends `text` to `buffer` with `& < > " '` escaped.
    @inlinable
    public static func append(_ text: String, to buffer: inout [UInt8]) {
        forEachRun(of: text) { buffer.append(contentsOf: $0) }
    }

    /// Hands `text` escaped to `emit`, as runs of bytes in order: unescaped stretches where they
    /// lie and the entities between them.
    @inlinable
    public static func forEachRun(of text: String, _ emit: (UnsafeBufferPointer<UInt8>) -> Void) {
        text.withUTF8Bytes { forEachRun(of: $0, emit) }
    }

    @usableFromInline
    static func forEachRun(of bytes: UnsafeBufferPointer<UInt8>, _ emit: (UnsafeBufferPointer<UInt8>) -> Void) {
        var start = 0
        // Eight bytes at a time while none of them is one to escape (most text has none).
        var index = ByteWords.wordsPassing(in: bytes) { !mayNeedEscaping($0) }
        while index < bytes.count {
            defer { index += 1 }
            let replacement: StaticString
            switch bytes[index] {
            case UInt8(ascii: "&"): replacement = "&amp;"
            case UInt8(ascii: "<"): replacement = "&lt;"
            case UInt8(ascii: ">"): replacement = "&gt;"
            case UInt8(ascii: "\""): replacement = "&quot;"
            case UInt8(ascii: "'"): replacement = "&#39;"
            default: continue
            }
            if start < index { emit(UnsafeBufferPointer(rebasing: bytes[start..<index])) }
            emit(UnsafeBufferPointer(start: replacement.utf8Start, count: replacement.utf8CodeUnitCount))
            start = index + 1
        }
        if start < bytes.count { emit(UnsafeBufferPointer(rebasing: bytes[start..<bytes.count])) }
    }

    /// True when one of the word's bytes is `& < > " '` (or `#`): two tests, not five. A byte
    /// with bits 0 and 2 set becomes 0x27 only if it was `" # & '` (0x22, 0x23, 0x26, 0x27), and
    /// with bit 1 set becomes 0x3E only if it was `<` or `>` (0x3C, 0x3E).
    @inlinable
    static func mayNeedEscaping(_ word: UInt64) -> Bool {
        ByteWords.contains(0x27, in: word | (ByteWords.ones &* 0x05))
            || ByteWords.contains(0x3E, in: word | (ByteWords.ones &* 0x02))
    }

    /// The escaped text as a string.
    public static func escape(_ text: String) -> String {
        var buffer: [UInt8] = []
        append(text, to: &buffer)
        return String(decoding: buffer, as: UTF8.self)
    }
}
