import Web

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
        defer { position += 8 }
        // One load, not a bounds-checked subscript per byte (a session has some twenty fields).
        return Int64(bitPattern: ByteSlices.uint64(bigEndianIn: bytes, at: position))
    }

    mutating func readBool() throws -> Bool {
        switch try readByte() {
        case 0: false
        case 1: true
        default: throw Malformed()
        }
    }

    /// Straight from the buffer: no intermediate array, no slice (this runs ~15 times per page view).
    mutating func readString() throws -> String {
        guard let text = ByteSlices.string(in: bytes, at: try readRange()) else { throw Malformed() }
        return text
    }

    /// Where the next field lies (indices of the bytes read), without reading it: a 4-byte
    /// big-endian length, then that many bytes, checked against what is left.
    mutating func readRange() throws -> Range<Int> {
        guard remaining >= 4 else { throw Malformed() }
        let count = Int(ByteSlices.uint32(bigEndianIn: bytes, at: position))
        position += 4
        guard remaining >= count else { throw Malformed() }
        defer { position += count }
        return position..<(position + count)
    }

    /// `readRange()` after its presence flag; nil when absent.
    mutating func readOptionalRange() throws -> Range<Int>? {
        try readBool() ? try readRange() : nil
    }

    /// What `ByteWriter.write(optional:)` wrote for a number.
    mutating func readOptionalInt64() throws -> Int64? {
        try readBool() ? try readInt64() : nil
    }

    mutating func readOptionalString() throws -> String? {
        try readBool() ? try readString() : nil
    }

    /// What `ByteWriter.write(list:)` wrote.
    mutating func readList() throws -> [String] {
        let count = Int(try readByte())
        // An empty list is the shared empty array: reserving room for none still made one.
        guard count > 0 else { return [] }
        var list: [String] = []
        list.reserveCapacity(count)
        for _ in 0..<count { list.append(try readString()) }
        return list
    }
}
