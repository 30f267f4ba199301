import Testing
import Web

/// The words of the catalogue with their `{marks}` filled, and trimming what a person typed.
@Suite struct CatalogueTests {
    @Test(arguments: [
        ("Logged out {device}.", ["device": "Firefox on Windows"], "Logged out Firefox on Windows."),
        ("{browser} on {system}", ["browser": "Firefox", "system": "Linux"], "Firefox on Linux"),
        ("try again in {seconds} seconds", [:], "try again in {seconds} seconds"),
        ("{missing} and {seconds}", ["seconds": "3"], "{missing} and 3"),
        ("no marks", ["seconds": "3"], "no marks"),
        ("{a}{a}", ["a": "x"], "xx"),
        ("unclosed {a", ["a": "x"], "unclosed {a"),
        ("请在 {seconds} 秒后再试", ["seconds": "3"], "请在 3 秒后再试"),
    ])
    func marksAreFilled(text: String, values: [String: String], expected: String) {
        #expect(Catalogue.filling(text, with: values) == expected)
    }

    /// A value is not read for marks: a device name that holds one is shown as it is.
    @Test func aValueIsNeverFilledAgain() {
        let filled = Catalogue.filling("{browser} on {system}", with: ["browser": "{system}", "system": "Linux"])
        #expect(filled == "{system} on Linux")
    }

    @Test(arguments: [
        ("  Believe in yourself!\n", "Believe in yourself!"), ("\u{3000}相信自己\u{3000}", "相信自己"),
        ("\t\r\n", ""), ("", ""), ("a b", "a b"),
    ])
    func whiteSpaceOfAnyScriptIsTrimmed(typed: String, expected: String) {
        #expect(typed.trimmingWhitespace() == expected)
    }
}
