import Testing
import Web

/// The buffer pages, log lines and answers are written into.
@Suite struct GrowingBytesTests {
    /// Lent room (a page's array being made) is written in place until it is full; then the
    /// bytes go on in room of their own, what was written copied first, and the lent room is left.
    @Test func lentRoomIsWrittenInPlaceUntilItIsFull() {
        var room = [UInt8](repeating: 0, count: 70)
        room.withUnsafeMutableBufferPointer { lent in
            var bytes = GrowingBytes(room: lent)
            bytes.append(String(repeating: "a", count: 60))
            let inLentRoom = !bytes.ownsItsBytes
            #expect(inLentRoom)
            #expect(lent[59] == UInt8(ascii: "a"))
            bytes.append(String(repeating: "b", count: 20))
            let inOwnRoom = bytes.ownsItsBytes
            #expect(inOwnRoom)
            bytes.append(UInt8(ascii: "c"))
            #expect(
                bytes.array()
                    == Array((String(repeating: "a", count: 60) + String(repeating: "b", count: 20) + "c").utf8))
            #expect(lent[60] == 0)
        }
    }

    @Test func whatIsAppendedReadsBackInOrderPastTheFirstRoom() {
        var bytes = GrowingBytes(capacity: 1)
        bytes.append("Status: " as StaticString)
        bytes.append("200")
        bytes.append(UInt8(ascii: " "))
        bytes.append(Array("OK".utf8))
        bytes.append(String(repeating: "x", count: 200))
        #expect(bytes.count == 214)
        #expect(String(decoding: bytes.array(), as: UTF8.self) == "Status: 200 OK" + String(repeating: "x", count: 200))
    }

    @Test(arguments: [0, 7, 10, 65_535, -1, -42, Int.max, Int.min])
    func numbersAreWrittenAsTheirDecimalDigits(value: Int) {
        var bytes = GrowingBytes(capacity: 8)
        bytes.appendDecimal(value)
        #expect(String(decoding: bytes.array(), as: UTF8.self) == String(value))
    }

    @Test func aTextBetweenTwoBytesIsWrittenWholeEvenPastTheRoom() {
        var bytes = GrowingBytes(capacity: 1)
        bytes.append(Array(String(repeating: "v", count: 63).utf8))
        bytes.append(UInt8(ascii: " "), "status", UInt8(ascii: "="))
        bytes.appendDecimal(200)
        #expect(String(decoding: bytes.array(), as: UTF8.self) == String(repeating: "v", count: 63) + " status=200")
    }

    @Test func aWrittenByteCanBeFilledInAndTheBufferReused() {
        var bytes = GrowingBytes(capacity: 8)
        bytes.append(Array("length ?".utf8))
        bytes[7] = UInt8(ascii: "8")
        #expect(bytes[7] == UInt8(ascii: "8"))
        #expect(bytes.withBytes { String(decoding: $0, as: UTF8.self) } == "length 8")
        bytes.removeAll()
        #expect(bytes.count == 0)
        bytes.append("again" as StaticString)
        #expect(String(decoding: bytes.array(), as: UTF8.self) == "again")
    }

    /// Short texts are copied word by word, long ones by memcpy: every length, at every place in
    /// a word, reads back as it was.
    @Test func everyLengthAtEveryPlaceReadsBackWhole() {
        let source = (0..<40).map { UInt8(ascii: "A") + UInt8($0) }
        for place in 0..<8 {
            for length in 0...source.count {
                var bytes = GrowingBytes(capacity: 1)
                bytes.append(Array(repeating: UInt8(ascii: "."), count: place))
                bytes.append(Array(source[..<length]))
                bytes.append(UInt8(ascii: "|"))
                let expected =
                    Array(repeating: UInt8(ascii: "."), count: place) + source[..<length] + [UInt8(ascii: "|")]
                #expect(bytes.array() == expected, "\(length) bytes after \(place)")
            }
        }
    }
}
