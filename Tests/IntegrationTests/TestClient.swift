import CurlClient
import Foundation
import TestSupport
import Web

/// An HTTP client for tests: the product's own libcurl adapter (or an `InProcessNetwork`) and the
/// tests' one `CookieJar`. Follows no redirects by itself so each step can be checked.
final class TestClient: @unchecked Sendable {
    private let http: any HTTPClient
    private var jar = CookieJar()
    /// The `User-Agent` every request sends (curl sends none of its own here).
    var userAgent: String?

    /// A client sending through `http`: libcurl over sockets, or an `InProcessNetwork`.
    init(http: any HTTPClient = CurlHTTPClient()) { self.http = http }

    /// Every cookie in the jar by name, whatever its path.
    var cookies: [String: String] { jar.byName }

    /// The `Path` each cookie named `name` was set with.
    func paths(of name: String) -> [String] { jar.paths(of: name) }

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
        other.jar = jar.copy()
        other.userAgent = userAgent
        return other
    }

    /// Puts a cookie in the jar, as if a server had set it.
    func setCookie(_ name: String, _ value: String, path: String = "/") { jar.set(name, value, path: path) }

    /// Takes a cookie out of the jar, as if the browser had lost it.
    func forget(_ name: String) { jar.forget(name) }

    /// The Cookie header a browser would send to `url`.
    func cookieHeader(for url: String) -> String? {
        let sent = jar.header(for: URLComponents(string: url)?.path ?? "/")
        return sent.isEmpty ? nil : sent
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
        for line in response.headers(named: "set-cookie") { jar.take(setCookie: line) }
        return Answer(
            status: response.status, headers: response.headers, body: String(decoding: response.body, as: UTF8.self))
    }
}

extension HTTPClientResponse {
    /// Every value of a header by lower-case name.
    func headers(named name: String) -> [String] { headers.filter { $0.name == name }.map(\.value) }
}
