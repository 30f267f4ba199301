import Web

/// The languages the pages speak: English, and Simplified Chinese for a browser asking for
/// `zh`, `zh-CN`, `zh-Hans` or `zh-SG` first. A choice made with the pages' switch (a cookie)
/// comes before the browser's.
public enum Language: String, Sendable, CaseIterable {
    case en, zh

    /// The cookie the switch sets (`en` or `zh`).
    static let cookie = "lang"

    /// The language of a request that sent `cookies`: the switch's choice, else the browser's.
    static func of(_ request: Request, cookies: Cookies) -> Language { chosen(cookies) ?? browsers(request) }

    /// The browser's language, English when it names none.
    private static func browsers(_ request: Request) -> Language {
        request.header("accept-language").map(fromAcceptLanguage) ?? .en
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
