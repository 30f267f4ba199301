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
}
