import Testing
import Web

/// The word-at-a-time tests, byte by byte: for every byte value in every position of a word
/// whose other bytes pass, each test says what a byte-by-byte loop would say. Then the scans
/// built on them (UTF-8, HTML escaping) on text where the word and the tail meet.
@Suite struct ByteWordsTests {
    /// Words of seven `filler` bytes and `byte` at each of the eight positions.
    private func words(with byte: UInt8, among filler: UInt8 = 0x61) -> [UInt64] {
        (0..<8).map { position in
            var bytes = [UInt8](repeating: filler, count: 8)
            bytes[position] = byte
            return bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
        }
    }

    @Test func eachTestIsExactForEveryByteInEveryPosition() {
        for value in 0...255 {
            let byte = UInt8(value)
            for word in words(with: byte) {
                for wanted: UInt8 in [0x00, 0x22, 0x26, 0x27, 0x3C, 0x3D, 0x3E, 0x61] {
                    #expect(ByteWords.contains(wanted, in: word) == (byte == wanted || wanted == 0x61), "\(byte)")
                }
                #expect(ByteWords.hasByte(below: 0x21, in: word) == (byte < 0x21), "\(byte)")
                #expect(ByteWords.hasByte(below: 0x80, in: word), "filler a is below 0x80")
                #expect(ByteWords.hasByteAboveTilde(in: word) == (byte > 0x7E), "\(byte)")
                #expect(ByteWords.isASCII(word) == (byte < 0x80), "\(byte)")
            }
            // Next to bytes that borrow and carry (0x00, 0xFF), a test still sees only this byte.
            for filler: UInt8 in [0x21, 0x7E] {
                for word in words(with: byte, among: filler) {
                    #expect(ByteWords.hasByte(below: 0x21, in: word) == (byte < 0x21), "\(byte) among \(filler)")
                    #expect(ByteWords.hasByteAboveTilde(in: word) == (byte > 0x7E), "\(byte) among \(filler)")
                }
            }
        }
    }

    @Test func aScanStopsAtTheFirstWordThatFails() {
        let bytes = Array("abcdefgh12345678é-tail".utf8)
        bytes.withUnsafeBufferPointer { buffer in
            #expect(ByteWords.wordsPassing(in: buffer, ByteWords.isASCII) == 16)
            #expect(ByteWords.wordsPassing(in: UnsafeBufferPointer(rebasing: buffer[..<7]), ByteWords.isASCII) == 0)
            #expect(ByteWords.wordsPassing(in: UnsafeBufferPointer(start: nil, count: 0), ByteWords.isASCII) == 0)
        }
    }

    private func isUTF8(_ bytes: [UInt8]) -> Bool { bytes.withUnsafeBufferPointer(UTF8Check.isValid) }

    @Test func asciiAndWholeCharactersAreUTF8WhereverTheyLie() {
        for written in ["", "skippy@example.com", "Glaubé an dich!", "你好，袋鼠 🦘", "eight!!!é", "seven!!é"] {
            #expect(isUTF8(Array(written.utf8)), "\(written)")
            #expect(isUTF8(Array(String(repeating: "x", count: 13).utf8) + Array(written.utf8)), "\(written)")
        }
    }

    /// Broken UTF-8 is refused wherever it lies: in a word, in the tail, where they meet.
    @Test func brokenUTF8IsRefused() {
        for broken: [UInt8] in [[0x61, 0x80], [0x61, 0xC3], [0xED, 0xA0, 0x80], Array("ok".utf8) + [0xFF]] {
            for padding in 0..<10 {
                #expect(!isUTF8([UInt8](repeating: 0x61, count: padding) + broken), "\(broken) after \(padding)")
            }
        }
    }

    @Test func escapingFindsEveryMarkInAWordAndInTheTail() {
        for padding in 0..<10 {
            let prefix = String(repeating: "a", count: padding)
            #expect(
                HTMLEscaping.escape(prefix + "<b>\"Tom\" & 'Jerry'</b>")
                    == prefix + "&lt;b&gt;&quot;Tom&quot; &amp; &#39;Jerry&#39;&lt;/b&gt;")
        }
    }
}
