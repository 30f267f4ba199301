/// Reads what `ByteWriter` wrote; throws on anything short or malformed. Works on a slice, so
/// a payload inside a larger buffer is read where it lies.
struct ByteReader {
    struct Malformed: Error {}
    private let bytes: ArraySlice<UInt8>
    private var position: Int

    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        position = bytes.startIndex
    }

    init(_ bytes: [UInt8]) { self.init(bytes[...]) }

    var isAtEnd: Bool { position == bytes.endIndex }

    private var remaining: Int { bytes.endIndex - position }

    mutating func readByte() throws -> UInt8 {
        guard remaining >= 1 else { throw Malformed() }
        defer { position += 1 }
        return bytes[position]
    }

    mutating func readInt64() throws -> Int64 {
        guard remaining >= 8 else { throw Malformed() }
        var value: Int64 = 0
        for _ in 0..<8 {
            value = value << 8 | Int64(bytes[position])
            position += 1
        }
        return value
    }

    mutating func readBool() throws -> Bool {
        switch try readByte() {
        case 0: false
        case 1: true
        default: throw Malformed()
        }
    }

    /// Straight from the buffer: no intermediate array (this runs ~15 times per page view).
    mutating func readString() throws -> String {
        let text = try readBytes().withUnsafeBufferPointer { field -> String? in
            // Tokens, ids and most names are ASCII, valid UTF-8 as they stand; the standard
            // library's full check is not specialised for UTF-8 and costs several times more.
            if ByteReader.isASCII(field) { return String(decoding: field, as: UTF8.self) }
            return String(validating: field, as: UTF8.self)
        }
        guard let text else { throw Malformed() }
        return text
    }

    /// True when no byte has its high bit set; eight bytes at a time.
    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let raw = UnsafeRawPointer(base)
        var index = 0
        while index + 8 <= bytes.count {
            if raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { return false }
            index += 8
        }
        while index < bytes.count {
            if bytes[index] >= 0x80 { return false }
            index += 1
        }
        return true
    }

    /// A 4-byte big-endian length, then that many bytes, checked against what is left; the
    /// bytes where they lie in the buffer (no copy).
    mutating func readBytes() throws -> ArraySlice<UInt8> {
        guard remaining >= 4 else { throw Malformed() }
        var count = 0
        for _ in 0..<4 {
            count = count << 8 | Int(bytes[position])
            position += 1
        }
        guard remaining >= count else { throw Malformed() }
        defer { position += count }
        return bytes[position..<(position + count)]
    }

    mutating func readOptionalString() throws -> String? {
        try readBool() ? try readString() : nil
    }
}
