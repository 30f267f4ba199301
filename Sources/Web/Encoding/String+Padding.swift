extension String {
    /// The text with spaces after it up to `width` characters (as it is when longer): a column
    /// of a listing a person reads in a terminal.
    public func padded(to width: Int) -> String { self + String(repeating: " ", count: max(0, width - count)) }
}
