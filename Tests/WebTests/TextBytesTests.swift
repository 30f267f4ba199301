import Testing
import Web

/// Text kept as bytes where they lie: only valid UTF-8 opens, equality is byte for byte, and
/// a template shows it as it shows a string.
@Suite struct TextBytesTests {
    /// `prefix`, then the text under test, then `suffix`, all in one buffer.
    private func text(_ bytes: [UInt8], between prefix: [UInt8] = [0xFF, 0x00], and suffix: [UInt8] = [0x80])
        -> TextBytes?
    {
        let storage = prefix + bytes + suffix
        return TextBytes(validating: storage, at: prefix.count..<(prefix.count + bytes.count))
    }

    @Test func asciiAndWholeCharactersOpenAndReadAsWritten() throws {
        for written in ["", "skippy@example.com", "Glaubé an dich!", "你好，袋鼠 🦘", "eight!!!é"] {
            let opened = try #require(text(Array(written.utf8)))
            #expect(String(opened) == written)
            #expect(opened == written)
            #expect(opened.isEmpty == written.isEmpty)
        }
    }

    /// Broken UTF-8 does not open, even where the bytes after the text would complete it.
    @Test func brokenUTF8DoesNotOpen() {
        #expect(text([0x61, 0x80]) == nil)  // a lone continuation byte
        #expect(text([0x61, 0xC3]) == nil)  // "é" cut after its first byte…
        #expect(text([0x61, 0xC3], between: [], and: [0xA9]) == nil)  // …with its second byte just after
        #expect(text([0xED, 0xA0, 0x80]) == nil)  // a surrogate
        #expect(text(Array("ok".utf8) + [0xFF]) == nil)
    }

    /// Byte for byte: "é" written as one character is not "e" and a combining accent, though
    /// Swift's strings call them equal.
    @Test func equalityIsByteForByte() throws {
        let composed = try #require(text(Array("é".utf8)))
        #expect(composed == "é")
        #expect(composed != TextBytes("e\u{301}"))
        #expect(!(composed == "e\u{301}"))
        #expect("é" == "e\u{301}")  // what String does
    }

    /// The same text in different buffers is equal and hashes alike (a set keeps it once).
    @Test func theSameTextElsewhereIsEqualAndHashesAlike() throws {
        let here = try #require(text(Array("auth0|123".utf8), between: Array("xyz".utf8)))
        let there = TextBytes("auth0|123")
        #expect(here == there)
        #expect(Set([here, there]).count == 1)
        #expect(here != TextBytes("auth0|124"))
    }

    @Test func aTemplateShowsItEscapedLikeAString() throws {
        let template = try TemplateLibrary(sources: [
            "t": "<p>{{a}}|{{b}}|{{{c}}}{{#d}}shown{{/d}}{{^e}}empty{{/e}}</p>"
        ])
        .template("t")
        let risky = try #require(text(Array("<b>\"Tom\" & 'Jerry'</b>".utf8)))
        let rendered = template.render([
            "a": .text(risky), "b": .text("<b>\"Tom\" & 'Jerry'</b>"), "c": .text(risky), "d": .text(risky),
            "e": .text(try #require(text([]))),
        ])
        let escaped = "&lt;b&gt;&quot;Tom&quot; &amp; &#39;Jerry&#39;&lt;/b&gt;"
        #expect(
            String(decoding: rendered, as: UTF8.self)
                == "<p>\(escaped)|\(escaped)|<b>\"Tom\" & 'Jerry'</b>shownempty</p>")
    }
}
