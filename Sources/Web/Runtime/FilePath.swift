/// Paths as text, where Foundation's `NSString` path methods are not at hand (the worker links
/// only FoundationEssentials).
public enum FilePath {
    /// The folder `path` names a file in: empty for a bare name, `/` for a file at the root;
    /// slashes at the end are not a file's name.
    public static func folder(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.last == "/" { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        return slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
    }
}
