/// The cookies of a request's `Cookie` header (parsed on bytes by `HeaderBytes`).
public struct Cookies: Sendable {
    /// Name and value pairs in the order sent; values are not decoded. A value is a slice of the
    /// header, not a copy: a session cookie is ~2 KB, read on every page view.
    public let pairs: [Pair]

    /// One cookie sent: a struct, not a tuple, since an array of tuples is destroyed through the
    /// runtime's generic tuple code, element by element.
    public struct Pair: Sendable {
        /// Its name.
        public let name: String
        /// Its value, where it lies in the header.
        public let value: Substring
    }

    /// Parses `a=b; c=d`. Pieces without `=` and names that are not RFC 6265 tokens are skipped.
    /// Works on the header's contiguous bytes, into one array: it runs on every request.
    public init(header: String) {
        // Offsets fall on ASCII separators, so they are character boundaries too.
        let utf8 = header.utf8
        var pairs: [Pair] = []
        HeaderBytes.forEachPiece(of: header, tokens: SetCookie.tokenTable) { name, value in
            let start = utf8.index(utf8.startIndex, offsetBy: value.lowerBound)
            pairs.append(Pair(name: name, value: header[start..<utf8.index(start, offsetBy: value.count)]))
        }
        self.pairs = pairs
    }

    /// The first value sent under a name.
    public subscript(_ name: String) -> String? {
        value(of: name).map(String.init)
    }

    /// The first value sent under a name, as a slice of the header (no copy).
    public func value(of name: String) -> Substring? {
        pairs.first { $0.name == name }?.value
    }

    /// How many cookies of this name were sent (a duplicate may be an attack).
    public func count(of name: String) -> Int { pairs.reduce(0) { $0 + ($1.name == name ? 1 : 0) } }

    /// The cookies whose names start with a prefix.
    public func named(withPrefix prefix: String) -> [(name: String, value: String)] {
        pairs.filter { $0.name.hasPrefix(prefix) }.map { ($0.name, String($0.value)) }
    }
}
