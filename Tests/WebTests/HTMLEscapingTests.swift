import Testing
import Web

@Suite struct HTMLEscapingTests {
    @Test func escapesTheFiveCharacters() {
        #expect(
            HTMLEscaping.escape(#"<script>alert("x") & 'y'</script>"#)
                == "&lt;script&gt;alert(&quot;x&quot;) &amp; &#39;y&#39;&lt;/script&gt;")
    }

    @Test func leavesOtherTextAlone() {
        #expect(HTMLEscaping.escape("Believe in yourself! 🎉 é") == "Believe in yourself! 🎉 é")
        #expect(HTMLEscaping.escape("") == "")
    }

    /// Every character of one byte, and a few longer ones, at every place of two words of other
    /// text: escaped exactly as a loop over the characters escapes it (the word test may stop at
    /// bytes close to the five, never pass one of them).
    @Test func everyCharacterAtEveryPlaceIsEscapedAsALoopWould() {
        func oneByOne(_ text: String) -> String {
            let entities: [Character: String] = ["&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;"]
            return text.map { entities[$0] ?? String($0) }.joined()
        }
        let characters = (1...0x7F).map { Character(Unicode.Scalar(UInt8($0))) } + ["é", "你", "🦘"]
        for character in characters {
            for place in 0..<16 {
                for filler in ["a", "#", "=", "?"] {
                    let text =
                        String(repeating: filler, count: place) + String(character)
                        + String(repeating: filler, count: 15 - place)
                    #expect(
                        HTMLEscaping.escape(text) == oneByOne(text),
                        "\(character.unicodeScalars.first!.value) at \(place)")
                }
            }
        }
    }

    /// Text is read eight bytes at a time until a word holds one of the five: each of them is
    /// found at every place in a word, after clean words, and among bytes next to them in value.
    @Test func findsEachCharacterWhereverItFallsInTheText() {
        let entities: [Character: String] = ["&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;"]
        for (character, entity) in entities {
            for prefix in 0..<20 {
                let clean = String(repeating: "%=?;(", count: 4).prefix(prefix)
                let text = clean + String(character) + "!#$"
                #expect(HTMLEscaping.escape(String(text)) == clean + entity + "!#$", "\(character) after \(prefix)")
            }
        }
    }
}
