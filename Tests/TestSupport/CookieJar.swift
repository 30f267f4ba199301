import Web

/// A browser's cookies for socket-free tests: keeps what `Set-Cookie` headers set, forgets what
/// they clear, and sends each cookie only to its path (RFC 6265 path-match), as browsers do.
public final class CookieJar {
    private var cookies: [String: (value: String, path: String)] = [:]

    /// An empty jar.
    public init() {}

    /// Takes the `Set-Cookie` headers of an answer.
    public func take(_ response: Response) {
        for header in response.headers where header.name == "Set-Cookie" {
            let parts = header.value.split(separator: ";").map { $0.trimmingPrefix(" ") }
            guard let pair = parts.first, let equals = pair.firstIndex(of: "=") else { continue }
            let name = String(pair[..<equals])
            let value = String(pair[pair.index(after: equals)...])
            let path = parts.first { $0.hasPrefix("Path=") }.map { String($0.dropFirst(5)) } ?? "/"
            if parts.contains("Max-Age=0") {
                cookies[name] = nil
            } else {
                cookies[name] = (value, path)
            }
        }
    }

    /// The names of the cookies kept.
    public var names: Set<String> { Set(cookies.keys) }

    /// The `Cookie` header a browser sends to `path`.
    public func header(for path: String) -> String {
        cookies.filter { path == $0.value.path || path.hasPrefix($0.value.path == "/" ? "/" : $0.value.path + "/") }
            .sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value.value)" }.joined(separator: "; ")
    }
}
