/// Trimming without Foundation's character sets, which are slow on Linux in the request path.
extension String {
    /// The text without leading and trailing spaces, tabs and line feeds.
    public func trimmingSpaces() -> String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" || f == "\n" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" || l == "\n" { s = s.dropLast() }
        return String(s)
    }
}
