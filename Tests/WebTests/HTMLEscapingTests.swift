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
