import Web

/// A browser's cookies for tests, in-process or over sockets alike: keeps what `Set-Cookie`
/// headers set (one cookie per name and path, ports ignored, as browsers do), forgets what they
/// clear, and sends each cookie only to the paths its `Path` covers (RFC 6265 5.1.4).
public final class CookieJar: @unchecked Sendable {
    private struct Key: Hashable {
        let name: String
        let path: String
    }
    private var cookies: [Key: String] = [:]

    /// An empty jar.
    public init() {}

    /// A jar holding a copy of this one's cookies, as an attacker who copied them would.
    public func copy() -> CookieJar {
        let other = CookieJar()
        other.cookies = cookies
        return other
    }

    /// Takes the `Set-Cookie` headers of an answer.
    public func take(_ response: Response) {
        for header in response.headers where header.name.lowercased() == "set-cookie" { take(setCookie: header.value) }
    }

    /// Takes one `Set-Cookie` header's value.
    public func take(setCookie: String) {
        let parts = setCookie.split(separator: ";").map { $0.trimmingPrefix(" ") }
        guard let pair = parts.first, let equals = pair.firstIndex(of: "=") else { return }
        let name = String(pair[..<equals])
        let value = String(pair[pair.index(after: equals)...])
        let path = parts.first { $0.hasPrefix("Path=") }.map { String($0.dropFirst("Path=".count)) } ?? "/"
        cookies[Key(name: name, path: path)] = parts.contains("Max-Age=0") ? nil : value
    }

    /// Puts a cookie in the jar, as if a server had set it.
    public func set(_ name: String, _ value: String, path: String = "/") {
        cookies[Key(name: name, path: path)] = value
    }

    /// Takes a cookie out of the jar, as if the browser had lost it.
    public func forget(_ name: String) { cookies = cookies.filter { $0.key.name != name } }

    /// The names of the cookies kept.
    public var names: Set<String> { Set(cookies.keys.map(\.name)) }

    /// Every cookie by name, whatever its path (the first found when a name has several).
    public var byName: [String: String] {
        Dictionary(cookies.map { ($0.key.name, $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    /// The `Path` each cookie named `name` was set with.
    public func paths(of name: String) -> [String] { cookies.keys.filter { $0.name == name }.map(\.path).sorted() }

    /// The `Cookie` header a browser sends to `path` (empty when it sends none).
    public func header(for path: String) -> String {
        cookies.filter { CookieJar.pathMatches(path, $0.key.path) }.map { "\($0.key.name)=\($0.value)" }.sorted()
            .joined(separator: "; ")
    }

    /// RFC 6265 section 5.1.4.
    public static func pathMatches(_ requestPath: String, _ cookiePath: String) -> Bool {
        let requestPath = requestPath.isEmpty ? "/" : requestPath
        guard requestPath.hasPrefix(cookiePath) else { return false }
        return requestPath.count == cookiePath.count || cookiePath.hasSuffix("/")
            || requestPath.dropFirst(cookiePath.count).hasPrefix("/")
    }
}
