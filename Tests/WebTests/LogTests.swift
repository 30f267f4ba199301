import Testing
import Web

@Suite struct LogTests {
    @Test func plainValuesStayPlain() {
        #expect(Log.quoted("abc-123") == "abc-123")
        #expect(Log.quoted("a b") == "\"a b\"")
        #expect(Log.quoted("") == "\"\"")
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
}
