/// HTML escaping on bytes, for text and attribute values alike.
public enum HTMLEscaping {
    /// Appends `text` to `buffer` with `& < > " '` escaped.
    @inlinable
    public static func append(_ text: String, to buffer: inout [UInt8]) {
        // A native string's bytes are read in place; anything else is made contiguous first.
        if text.utf8.withContiguousStorageIfAvailable({ append(bytes: $0, to: &buffer) }) == nil {
            var copy = text
            copy.withUTF8 { append(bytes: $0, to: &buffer) }
        }
    }

    @usableFromInline
    static func append(bytes: UnsafeBufferPointer<UInt8>, to buffer: inout [UInt8]) {
        var start = 0
        for index in 0..<bytes.count {
            let replacement: StaticString
            switch bytes[index] {
            case UInt8(ascii: "&"): replacement = "&amp;"
            case UInt8(ascii: "<"): replacement = "&lt;"
            case UInt8(ascii: ">"): replacement = "&gt;"
            case UInt8(ascii: "\""): replacement = "&quot;"
            case UInt8(ascii: "'"): replacement = "&#39;"
            default: continue
            }
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
            buffer.append(
                contentsOf: UnsafeBufferPointer(start: replacement.utf8Start, count: replacement.utf8CodeUnitCount))
            start = index + 1
        }
        buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<bytes.count]))
    }

    /// The escaped text as a string.
    public static func escape(_ text: String) -> String {
        var buffer: [UInt8] = []
        append(text, to: &buffer)
        return String(decoding: buffer, as: UTF8.self)
    }
}
