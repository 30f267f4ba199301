import CurlClient
import Foundation
import Web

/// An HTTP client for tests: the product's own libcurl adapter plus a cookie jar, following
/// no redirects by itself so each step can be checked.
final class TestClient: @unchecked Sendable {
    private let http = CurlHTTPClient()
    private(set) var cookies: [String: String] = [:]

    struct Answer {
        let status: Int
        let headers: [(name: String, value: String)]
        let body: String
        func header(_ name: String) -> String? { headers.first { $0.name == name.lowercased() }?.value }
        func headers(_ name: String) -> [String] { headers.filter { $0.name == name.lowercased() }.map(\.value) }
    }

    /// Puts a cookie in the jar, as if a server had set it.
    func setCookie(_ name: String, _ value: String) { cookies[name] = value }

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
        if !cookies.isEmpty, !headers.contains(where: { $0.name.lowercased() == "cookie" }) {
            all.append(("Cookie", cookies.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: "; ")))
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
        if setCookie.contains("Max-Age=0") { cookies[name] = nil } else { cookies[name] = value }
    }
}
