import Web

/// The languages the pages speak: English, and Simplified Chinese for a browser asking for
/// `zh`, `zh-CN`, `zh-Hans` or `zh-SG` first. A choice made with the pages' switch (a cookie)
/// comes before the browser's.
public enum Language: String, Sendable, CaseIterable {
    case en, zh

    /// The cookie the switch sets (`en` or `zh`).
    static let cookie = "lang"

    /// The language of a request.
    static func of(_ request: Request) -> Language { chosen(request) ?? browsers(request) }

    /// `of(_:)` for a request whose cookies the chain has parsed already (the session stage's):
    /// the choice is looked up among them, not found by scanning the header again.
    static func of(_ request: Request, cookies: Cookies) -> Language { chosen(cookies) ?? browsers(request) }

    /// The browser's language, English when it names none.
    private static func browsers(_ request: Request) -> Language {
        request.header("accept-language").map(fromAcceptLanguage) ?? .en
    }

    /// The person's choice with the switch, if they made one.
    static func chosen(_ request: Request) -> Language? {
        request.header("cookie").flatMap { Cookies.first(named: cookie, inHeader: $0) }.flatMap(
            Language.init(rawValue:))
    }

    /// The choice kept in `cookies`, if any.
    static func chosen(_ cookies: Cookies) -> Language? { cookies[cookie].flatMap(Language.init(rawValue:)) }

    /// The browser's most wanted language (highest `q`, the first among equals): Chinese for the
    /// Simplified Chinese tags, English for anything else.
    static func fromAcceptLanguage(_ header: String) -> Language {
        LanguageTags.wantsSimplifiedChinese(acceptLanguage: header) ? .zh : .en
    }

    /// The tag Universal Login is asked to speak (`ui_locales`).
    var uiLocale: String { self == .zh ? "zh-CN" : "en" }
}
