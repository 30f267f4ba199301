/// Text kept as its UTF-8 bytes where they already lie, in a buffer it shares (an opened
/// cookie's): made and dropped with a reference count, not an allocation, a copy and a check
/// each, and shown by a template straight from its bytes. A session's dozen texts as `String`s
/// were a fifth of a logged-in page's instructions. `String(text)` where a string is needed.
public struct TextBytes: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
    // Two words (a buffer and where the text lies in it), one reference: copied and dropped
    // like a string, and small enough that a template value holding one is copied in line.
    @usableFromInline let storage: [UInt8]
    @usableFromInline let start: Int32
    @usableFromInline let count: Int32

    /// The text at `range` of `storage`, or nil when those bytes are not valid UTF-8. ASCII
    /// (most names and every token) is recognised eight bytes at a time; anything else is
    /// checked in full.
    @inlinable
    public init?(validating storage: [UInt8], at range: Range<Int>) {
        precondition(range.lowerBound >= 0 && range.upperBound <= storage.count, "text outside its buffer")
        precondition(storage.count <= Int(Int32.max), "buffer too large for text offsets")
        let valid = storage.withUnsafeBufferPointer { buffer in
            let field = UnsafeBufferPointer(start: buffer.baseAddress.map { $0 + range.lowerBound }, count: range.count)
            return TextBytes.isUTF8(field)
        }
        guard valid else { return nil }
        self.storage = storage
        start = Int32(range.lowerBound)
        count = Int32(range.count)
    }

    /// The bytes of `string`.
    public init(_ string: String) {
        storage = Array(string.utf8)
        start = 0
        count = Int32(storage.count)
    }

    /// Text from a literal.
    public init(stringLiteral value: String) { self.init(value) }

    /// The text as a string (a copy).
    public var description: String { withBytes { String(decoding: $0, as: UTF8.self) } }

    /// Whether there is no text.
    @inlinable
    public var isEmpty: Bool { count == 0 }

    /// Calls `body` with the UTF-8 bytes where they lie.
    @inlinable
    public func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try storage.withUnsafeBufferPointer {
            try body(UnsafeBufferPointer(rebasing: $0[Int(start)..<Int(start + count)]))
        }
    }

    /// The same bytes, wherever each lies.
    public static func == (a: TextBytes, b: TextBytes) -> Bool {
        a.withBytes { a in b.withBytes { a.elementsEqual($0) } }
    }

    /// The bytes, as `[UInt8]` hashes them.
    public func hash(into hasher: inout Hasher) { withBytes { hasher.combine(bytes: UnsafeRawBufferPointer($0)) } }

    /// Whether the text is exactly `string` (byte for byte: no Unicode equivalence).
    public static func == (text: TextBytes, string: String) -> Bool { text.withBytes { $0.elementsEqual(string.utf8) } }

    /// Whether the text is exactly `string`.
    public static func == (string: String, text: TextBytes) -> Bool { text == string }

    /// Whether `bytes` are valid UTF-8: ASCII recognised eight bytes at a time (tokens, ids and
    /// most names), anything else checked in full by the standard library.
    @inlinable
    package static func isUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool { isASCII(bytes) || isUTF8Beyond(bytes) }

    /// The full check, for text that is not all ASCII.
    @usableFromInline
    static func isUTF8Beyond(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        String(validating: bytes, as: UTF8.self) != nil
    }

    /// Eight bytes at a time while they are ASCII, then one by one.
    @inlinable
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
}

extension String {
    /// The text of `text` (a copy of its bytes).
    public init(_ text: TextBytes) { self = text.description }
}
