import Web

/// Universal Login speaks the language `/authorize` asks for in `ui_locales` (space-separated
/// tags, the first one it has wins), else the browser's (`Accept-Language`): English, or
/// Simplified Chinese. The language is kept in the copy of the tenant that answers the request.
extension DevTenant {
    /// The languages the tenant's pages speak.
    static let languages = ["en", "zh"]

    /// `en` or `zh`, for `uiLocales` else `acceptLanguage`.
    static func language(uiLocales: String?, acceptLanguage: String?) -> String {
        for tag in (uiLocales ?? "").split(separator: " ") {
            if LanguageTags.isSimplifiedChinese(tag) { return "zh" }
            if tag.lowercased() == "en" || tag.lowercased().hasPrefix("en-") { return "en" }
        }
        let chinese = acceptLanguage.map { LanguageTags.wantsSimplifiedChinese(acceptLanguage: $0) } ?? false
        return chinese ? "zh" : "en"
    }

    /// Answers this request in the language of `uiLocales`, else of its browser.
    mutating func speak(_ request: Request, uiLocales: String?) {
        language = DevTenant.language(uiLocales: uiLocales, acceptLanguage: request.header("accept-language"))
    }

    /// The pages in the request's language.
    var pages: TenantPages { pagesByLanguage[language] ?? pagesByLanguage["en"]! }

    /// `text` (a sentence of the code, in English) in the request's language.
    func say(_ text: String) -> String { pages.words?.text("text:" + text) ?? text }
}
