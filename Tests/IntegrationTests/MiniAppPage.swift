import Foundation

/// What an example mini app's page (`deploy/mini-app/mini_app.py`) says, read from its HTML as a
/// person reads it: its title, who is logged in, the account's details, the announcements' titles
/// and an error's sentence.
struct MiniAppPage {
    let title: String
    let signedIn: String
    /// The account's details: each `<dt>` with its `<dd>`.
    let details: [String: String]
    /// The announcements' titles, in order.
    let announcements: [String]
    /// The sentence of an error (`role="alert"`), if any.
    let notice: String?
    /// The page's language (`<html lang>`).
    let language: String

    init(_ html: String) {
        title = Self.texts(in: html, from: #"<h1 class="title">"#, to: "</h1>").first ?? ""
        signedIn = Self.texts(in: html, from: #"<p class="signed-in">"#, to: "</p>").first ?? ""
        let names = Self.texts(in: html, from: "<dt>", to: "</dt>")
        let values = Self.texts(in: html, from: "<dd>", to: "</dd>")
        details = Dictionary(zip(names, values), uniquingKeysWith: { first, _ in first })
        announcements = Self.texts(in: html, from: "<h2>", to: "</h2>")
        notice = Self.texts(in: html, from: #"role="alert">"#, to: "</p>").first
        language = Self.texts(in: html, from: #"<html lang=""#, to: #"""#).first ?? ""
    }

    /// "Logged in as NAME (EMAIL)" for a person whose name is their email, as the demo people's are.
    static func loggedIn(_ email: String) -> String { "Logged in as \(email) (\(email))" }

    private static func texts(in html: String, from start: String, to end: String) -> [String] {
        var found: [String] = []
        var rest = html[...]
        while let open = rest.range(of: start), let close = rest[open.upperBound...].range(of: end) {
            found.append(unescaped(String(rest[open.upperBound..<close.lowerBound])))
            rest = rest[close.upperBound...]
        }
        return found
    }

    private static func unescaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#x27;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
    }
}
