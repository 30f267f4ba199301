import PerThread
import Web

/// Universal Login speaks the language `/authorize` asks for in `ui_locales` (space-separated
/// tags, the first one it has wins), else the browser's (`Accept-Language`): English, or
/// Simplified Chinese. A request is answered on one thread from start to end, so its language is
/// kept for that thread while it is answered.
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
    func speak(_ request: Request, uiLocales: String?) {
        DevTenant.spoken.value().language = DevTenant.language(
            uiLocales: uiLocales, acceptLanguage: request.header("accept-language"))
    }

    /// The language of the request being answered on this thread.
    var language: String { DevTenant.spoken.value().language }

    /// The pages in the request's language.
    var pages: TenantPages { pagesByLanguage[language] ?? pagesByLanguage["en"]! }

    /// `text` (a sentence of the code, in English) in the request's language.
    func say(_ text: String) -> String { pages.words?.text("text:" + text) ?? text }

    static let spoken = ThreadLocal { SpokenLanguage() }
}

/// The tenant's pages in one language, and its catalogue for the sentences the code says
/// (`text:` + the English; the English catalogue has none).
struct TenantPages: Sendable {
    let login: Template
    let consent: Template
    let message: Template
    let words: Catalogue?

    init(_ templates: TemplateLibrary) throws {
        login = try templates.template("login")
        consent = try templates.template("consent")
        message = try templates.template("message")
        words = templates.catalogue
    }
}

/// The language of the request a thread is answering.
final class SpokenLanguage {
    var language = "en"
}
