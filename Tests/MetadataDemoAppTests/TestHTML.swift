import Web

/// Reading what a person would see in the product's pages.
enum TestHTML {
    static func text(_ response: Response) -> String { String(decoding: response.body, as: UTF8.self) }

    /// A hidden input's value.
    static func hiddenField(_ name: String, in response: Response) -> String? {
        value(after: "name=\"\(name)\" value=\"", in: text(response))
    }

    /// The affirmation field's value.
    static func field(in response: Response) -> String? {
        value(
            after: "name=\"affirmation\" type=\"text\" placeholder=\"Your affirmation here\" value=\"",
            in: text(response)
        )
        .map(unescaped)
    }

    private static func value(after marker: String, in html: String) -> String? {
        guard let range = html.range(of: marker) else { return nil }
        let rest = html[range.upperBound...]
        return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
    }

    private static func unescaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
    }
}
