/// Decoded `name=value&…` pairs from a query string or a form body, in order.
public struct FormData: Sendable, Equatable {
    /// The pairs as sent; a name may repeat.
    public let pairs: [(name: String, value: String)]

    /// Equal when the pairs are equal, in order.
    public static func == (a: FormData, b: FormData) -> Bool {
        a.pairs.elementsEqual(b.pairs) { $0.name == $1.name && $0.value == $1.value }
    }

    /// Form data with these pairs.
    public init(pairs: [(name: String, value: String)]) { self.pairs = pairs }

    /// Parses URL-encoded bytes; throws `WebError.badRequest` on bad escapes, bad UTF-8 or NUL.
    public init(urlEncoded bytes: [UInt8]) throws {
        var pairs: [(name: String, value: String)] = []
        for part in bytes.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            if let equals = part.firstIndex(of: UInt8(ascii: "=")) {
                let name = try PercentEncoding.decode(part[part.startIndex..<equals], plusIsSpace: true)
                let value = try PercentEncoding.decode(part[part.index(after: equals)...], plusIsSpace: true)
                pairs.append((name, value))
            } else {
                pairs.append((try PercentEncoding.decode(part, plusIsSpace: true), ""))
            }
        }
        self.pairs = pairs
    }

    /// The first value for a name.
    public subscript(_ name: String) -> String? {
        pairs.first { $0.name == name }?.value
    }

    /// The first name given more than once, or nil (RFC 6749 §3.1 and §3.2: a request's
    /// parameters MUST NOT be included more than once).
    public var repeatedName: String? {
        var seen = Set<String>()
        return pairs.first { !seen.insert($0.name).inserted }?.name
    }

    /// The first value of each name.
    public var firstValues: [String: String] {
        Dictionary(pairs.map { ($0.name, $0.value) }) { first, _ in first }
    }

    /// Every value for a name.
    public func all(_ name: String) -> [String] {
        pairs.filter { $0.name == name }.map(\.value)
    }
}
