import CurlClient
import Foundation
import Web

/// An HTTP client for tests: the product's own libcurl adapter (or an in-process network) plus a cookie jar that, like a
/// browser's, ignores ports and sends a cookie only to paths its `Path` covers. Follows no
/// redirects by itself so each step can be checked.
final class TestClient: @unchecked Sendable {
    private let http: any HTTPClient
    private struct Key: Hashable {
        let name: String
        let path: String
    }
    private var jar: [Key: String] = [:]
    /// The `User-Agent` every request sends (curl sends none of its own here).
    var userAgent: String?

    /// A client sending through `http`: libcurl over sockets, or an `InProcessNetwork`.
    init(http: any HTTPClient = CurlHTTPClient()) { self.http = http }

    /// Every cookie in the jar by name, whatever its path.
    var cookies: [String: String] {
        Dictionary(jar.map { ($0.key.name, $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    /// The `Path` each cookie named `name` was set with.
    func paths(of name: String) -> [String] { jar.keys.filter { $0.name == name }.map(\.path).sorted() }

    struct Answer {
        let status: Int
        let headers: [(name: String, value: String)]
        let body: String
        func header(_ name: String) -> String? { headers.first { $0.name == name.lowercased() }?.value }
        func headers(_ name: String) -> [String] { headers.filter { $0.name == name.lowercased() }.map(\.value) }
    }

    /// Another client holding a copy of this one's cookies, as an attacker who copied them would.
    func copy() -> TestClient {
        let other = TestClient(http: http)
        other.jar = jar
        other.userAgent = userAgent
        return other
    }

    /// Puts a cookie in the jar, as if a server had set it.
    func setCookie(_ name: String, _ value: String, path: String = "/") { jar[Key(name: name, path: path)] = value }

    /// Takes a cookie out of the jar, as if the browser had lost it.
    func forget(_ name: String) { jar = jar.filter { $0.key.name != name } }

    /// The Cookie header a browser would send to `url`.
    func cookieHeader(for url: String) -> String? {
        let path = URLComponents(string: url)?.path ?? "/"
        let sent = jar.filter { TestClient.pathMatches(path, $0.key.path) }.map { "\($0.key.name)=\($0.value)" }
        return sent.isEmpty ? nil : sent.sorted().joined(separator: "; ")
    }

    /// RFC 6265 section 5.1.4.
    static func pathMatches(_ requestPath: String, _ cookiePath: String) -> Bool {
        let requestPath = requestPath.isEmpty ? "/" : requestPath
        guard requestPath.hasPrefix(cookiePath) else { return false }
        return requestPath.count == cookiePath.count || cookiePath.hasSuffix("/")
            || requestPath.dropFirst(cookiePath.count).hasPrefix("/")
    }

    func get(_ url: String, headers: [(name: String, value: String)] = []) throws -> Answer {
        try send("GET", url, headers: headers)
    }

    func post(_ url: String, form: [(String, String)], headers: [(name: String, value: String)] = []) throws -> Answer {
        try send(
            "POST", url, headers: headers + [("Content-Type", "application/x-www-form-urlencoded")],
            body: Array(PercentEncoding.formEncode(form).utf8))
    }

    func send(_ method: String, _ url: String, headers: [(name: String, value: String)] = [], body: [UInt8] = []) throws
        -> Answer
    {
        var all = headers
        if let userAgent { all.append(("User-Agent", userAgent)) }
        if let sent = cookieHeader(for: url), !headers.contains(where: { $0.name.lowercased() == "cookie" }) {
            all.append(("Cookie", sent))
        }
        let response = try http.send(
            HTTPClientRequest(method: method, url: url, headers: all, body: body, timeoutSeconds: 15))
        for line in response.headers(named: "set-cookie") { remember(line) }
        return Answer(
            status: response.status, headers: response.headers, body: String(decoding: response.body, as: UTF8.self))
    }

    private func remember(_ setCookie: String) {
        let first = setCookie.split(separator: ";", maxSplits: 1)[0]
        guard let equals = first.firstIndex(of: "=") else { return }
        let name = String(first[..<equals]).trimmingCharacters(in: .whitespaces)
        let value = String(first[first.index(after: equals)...])
        let path =
            setCookie.split(separator: ";").lazy.map { $0.trimmingCharacters(in: .whitespaces) }
            .first { $0.hasPrefix("Path=") }.map { String($0.dropFirst("Path=".count)) } ?? "/"
        let key = Key(name: name, path: path)
        if setCookie.contains("Max-Age=0") { jar[key] = nil } else { jar[key] = value }
    }
}

extension HTTPClientResponse {
    /// Every value of a header by lower-case name.
    func headers(named name: String) -> [String] { headers.filter { $0.name == name }.map(\.value) }
}
