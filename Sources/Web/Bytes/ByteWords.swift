/// Eight bytes at a time: the word tricks every byte scan here uses, written once. A scan loads
/// an unaligned 64-bit word and asks, in a few register operations, whether any of its bytes is
/// one it must stop at; only then does it go byte by byte. Each test is exact (never a false
/// "none"), which `ByteWordsTests` checks for every byte value in every position.
public enum ByteWords {
    /// `0x01` in every byte: `ones &* b` is the byte `b` eight times.
    @usableFromInline static let ones: UInt64 = 0x0101_0101_0101_0101
    /// The high bit of every byte.
    @usableFromInline static let highs: UInt64 = 0x8080_8080_8080_8080

    /// True when a byte of `word` is `byte`: the well-known zero-byte test on `word ^ byte×8`.
    @inlinable
    public static func contains(_ byte: UInt8, in word: UInt64) -> Bool { hasZeroByte(word ^ (ones &* UInt64(byte))) }

    /// True when a byte of `word` is less than `limit` (at most 0x80).
    @inlinable
    public static func hasByte(below limit: UInt8, in word: UInt64) -> Bool {
        (word &- ones &* UInt64(limit)) & ~word & highs != 0
    }

    /// True when a byte of `word` is more than 0x7E (DEL, or not ASCII).
    @inlinable
    public static func hasByteAboveTilde(in word: UInt64) -> Bool { ((word &+ ones) | word) & highs != 0 }

    /// True when every byte of `word` is ASCII.
    @inlinable
    public static func isASCII(_ word: UInt64) -> Bool { word & highs == 0 }

    /// How many leading bytes of `bytes` lie in whole words that `passes` accepts: the scan
    /// goes on byte by byte from there.
    @inlinable
    public static func wordsPassing(in bytes: UnsafeBufferPointer<UInt8>, _ passes: (UInt64) -> Bool) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        let raw = UnsafeRawPointer(base)
        var index = 0
        while index + 8 <= bytes.count, passes(raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)) {
            index += 8
        }
        return index
    }

    @inlinable
    static func hasZeroByte(_ x: UInt64) -> Bool { (x &- ones) & ~x & highs != 0 }
}
