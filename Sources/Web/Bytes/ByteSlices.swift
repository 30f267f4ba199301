/// What the session's byte format reads from a slice in one step: a big-endian integer loaded
/// where it lies, a UTF-8 field checked and made a `String` without an intermediate array (a
/// session has some twenty fields, opened on every page view), a text's fingerprint.
public enum ByteSlices {
    /// The big-endian `UInt64` at `offset` of `bytes` (the caller checked it is there). One
    /// function per width, not one generic: a generic called from another module runs
    /// unspecialised, looking its types' metadata up at every call (18 a page view).
    public static func uint64(bigEndianIn bytes: ArraySlice<UInt8>, at offset: Int) -> UInt64 {
        bytes.withUnsafeBytes {
            UInt64(bigEndian: $0.loadUnaligned(fromByteOffset: offset - bytes.startIndex, as: UInt64.self))
        }
    }

    /// The big-endian `UInt32` at `offset` of `bytes` (the caller checked it is there).
    public static func uint32(bigEndianIn bytes: ArraySlice<UInt8>, at offset: Int) -> UInt32 {
        bytes.withUnsafeBytes {
            UInt32(bigEndian: $0.loadUnaligned(fromByteOffset: offset - bytes.startIndex, as: UInt32.self))
        }
    }

    /// The field at `range` (indices of `bytes`) as text, or nil when it is not valid UTF-8: read
    /// where it lies, without making a slice of it (a retain and a release of the buffer, for
    /// each of a session's twenty-odd fields).
    public static func string(in bytes: ArraySlice<UInt8>, at range: Range<Int>) -> String? {
        precondition(range.lowerBound >= bytes.startIndex && range.upperBound <= bytes.endIndex, "field out of range")
        return bytes.withUnsafeBufferPointer { all in
            let field = UnsafeBufferPointer(
                rebasing: all[(range.lowerBound - bytes.startIndex)..<(range.upperBound - bytes.startIndex)])
            return UTF8Check.isValid(field) ? String(decoding: field, as: UTF8.self) : nil
        }
    }

    /// The standard library's SipHash over a text's UTF-8 bytes, seeded at random per process.
    public static func fingerprint(_ text: String) -> UInt64 {
        text.withUTF8Bytes { bytes in
            var hasher = Hasher()
            hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
            return UInt64(bitPattern: Int64(hasher.finalize()))
        }
    }
}
