import Testing

@testable import Web

@Suite struct LogTests {
    @Test func plainValuesStayPlain() {
        #expect(Log.quoted("abc-123") == "abc-123")
        #expect(Log.quoted("a b") == "\"a b\"")
        #expect(Log.quoted("") == "\"\"")
    }

    /// Every byte at every place of a value long enough to be judged eight bytes at a time:
    /// plain exactly when it is printable ASCII other than `"` and `=`.
    @Test func everyByteAtEveryPlaceIsJudgedAsItselfAlone() {
        for place in 0..<17 {
            for byte in UInt8(0)...UInt8(0x7F) {
                var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: 17)
                bytes[place] = byte
                let value = String(decoding: bytes, as: UTF8.self)
                let plain = (0x21...0x7E).contains(byte) && byte != 0x22 && byte != 0x3D
                #expect((Log.quoted(value) == value) == plain, "byte \(byte) at \(place)")
            }
            let accented = String(repeating: "a", count: place) + "é" + String(repeating: "a", count: 16 - place)
            #expect(Log.quoted(accented) != accented)
        }
    }

    /// A value can never end the record and start a forged one, whatever separator a log
    /// viewer breaks lines at.
    @Test(arguments: ["\n", "\r", "\u{0085}", "\u{2028}", "\u{2029}", "\u{000B}", "\u{000C}", "\u{001B}", "\u{007F}"])
    func everyLineBreakingOrControlCharacterIsEscaped(separator: String) {
        let quoted = Log.quoted("ok\(separator)level=error msg=forged")
        #expect(!quoted.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
        #expect(!quoted.unicodeScalars.contains { $0 == "\u{2028}" || $0 == "\u{2029}" })
        #expect(quoted.hasPrefix("\"ok\\"))
    }

    @Test func quotesAndBackslashesAreEscapedAndOtherTextKept() {
        #expect(Log.quoted(#"say "hi" \ 🦘 é"#) == #""say \"hi\" \\ 🦘 é""#)
        #expect(Log.quoted("\u{2028}") == #""\u{2028}""#)
    }

    /// The request's line is built field by field; numbers are written as digits.
    @Test func aLineBuiltFieldByFieldReadsAsTheRecordWould() {
        var line = Log(minimum: .info).line(.info, "request")
        line.field("path", "/a b")
        line.field("status", 200)
        line.field("zero", 0)
        line.field("delta", -42)
        line.field("big", Int.min)
        #expect(
            line.text
                == #"level=info msg=request path="/a b" status=200 zero=0 delta=-42 big=-9223372036854775808"#)
    }

    /// The request's line begins from a start made once: it reads as a line begun field by
    /// field would, its message quoted when it needs to be, held or written at once.
    @Test func aLineFromAStartMadeOnceReadsAsOneBegunAfresh() throws {
        let pipe = try HeldLogLinesTests.Pipe()
        let lines = HeldLogLines(descriptor: pipe.writing)
        let log = Log(minimum: .info)
        for level in [Log.Level.info, .warning] {
            for message in ["request", "request done", ""] {
                var fresh = log.line(level, message)
                fresh.field("id", "a1")
                log.write(Log.LineStart(level, message), heldBy: lines) { $0.field("id", "a1") }
                lines.writeOut()
                #expect(pipe.arrived() == fresh.text + "\n")
            }
        }
        log.write(Log.LineStart(.info, "request done"), heldBy: lines) { _ in }
        lines.writeOut()
        #expect(pipe.arrived() == "level=info msg=\"request done\"\n")
    }
}
