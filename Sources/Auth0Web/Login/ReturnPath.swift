/// Where to send a person after login: only a path on this site, never another origin.
public enum ReturnPath {
    /// `candidate` when it is a safe relative path, else `/`. Refuses `//host`, `/\host`,
    /// schemes, control characters and encoded slashes or backslashes that a browser may
    /// turn into another origin.
    public static func sanitize(_ candidate: String?) -> String {
        guard let candidate, isSafe(candidate) else { return "/" }
        return candidate
    }

    /// True when the path stays on this origin.
    public static func isSafe(_ path: String) -> Bool {
        let bytes = Array(path.utf8)
        guard bytes.first == UInt8(ascii: "/"), bytes.count <= 2048 else { return false }
        if bytes.count > 1, bytes[1] == UInt8(ascii: "/") || bytes[1] == UInt8(ascii: "\\") { return false }
        for byte in bytes where byte < 0x21 || byte == 0x7F || byte == UInt8(ascii: "\\") { return false }
        let lowered = path.lowercased()
        // Encoded `/` or `\` right after the first slash could be decoded into `//` later.
        if lowered.hasPrefix("/%2f") || lowered.hasPrefix("/%5c") { return false }
        if lowered.contains("%0a") || lowered.contains("%0d") || lowered.contains("%00") { return false }
        return true
    }
}
