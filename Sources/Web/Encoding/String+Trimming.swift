/// Trimming without Foundation's character sets, which are slow on Linux in the request path.
extension String {
    /// The text without leading and trailing spaces, tabs, carriage returns and line feeds.
    public func trimmingSpaces() -> String {
        var s = Substring(self)
        while let f = s.first, Self.isSpace(f) { s = s.dropFirst() }
        while let l = s.last, Self.isSpace(l) { s = s.dropLast() }
        return String(s)
    }

    /// The text without leading and trailing white space of any script (`Character.isWhitespace`:
    /// the ideographic space a Chinese keyboard types too).
    /// With `keepingLineBreaks`, line breaks at either end stay.
    public func trimmingWhitespace(keepingLineBreaks: Bool = false) -> String {
        let trimmed = { (character: Character) in character.isWhitespace && !(keepingLineBreaks && character.isNewline)
        }
        return String(drop(while: trimmed).reversed().drop(while: trimmed).reversed())
    }

    private static func isSpace(_ character: Character) -> Bool {
        character == " " || character == "\t" || character == "\n" || character == "\r" || character == "\r\n"
    }
}
