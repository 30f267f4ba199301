import Web

/// A compact, versioned byte format for what goes inside sealed cookies: faster to read on
/// every page view than JSON, and every length checked before slicing.
struct ByteWriter {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 512) { bytes.reserveCapacity(capacity) }

    mutating func write(_ value: UInt8) { bytes.append(value) }

    mutating func write(_ value: Int64) {
        for shift in stride(from: 56, through: 0, by: -8) {
            bytes.append(UInt8(truncatingIfNeeded: value >> Int64(shift)))
        }
    }

    mutating func write(_ value: Bool) { bytes.append(value ? 1 : 0) }

    mutating func write(_ value: String) { write(bytes: Array(value.utf8)) }

    mutating func write(bytes value: [UInt8]) {
        let count = UInt32(value.count)
        for shift in stride(from: 24, through: 0, by: -8) {
            bytes.append(UInt8(truncatingIfNeeded: count >> UInt32(shift)))
        }
        bytes.append(contentsOf: value)
    }

    /// A 1-byte count (at most 255 strings), then each string.
    mutating func write(list: [String]) {
        let kept = list.prefix(255)
        write(UInt8(kept.count))
        for item in kept { write(item) }
    }

    /// A presence byte, then the number when present.
    mutating func write(optional value: Int64?) {
        write(value != nil)
        if let value { write(value) }
    }

    mutating func write(optional value: String?) {
        write(value != nil)
        if let value { write(value) }
    }
}
