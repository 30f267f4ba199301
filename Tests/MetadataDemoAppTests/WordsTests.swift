import Auth0Web
import Foundation
import Testing
import Web

@testable import MetadataDemoApp

/// What the code says comes from the catalogue too: every key it can say is checked at start-up,
/// and words kept for later (a flash in its cookie) are said in the language of the page that
/// shows them.
@Suite struct WordsTests {
    static func pages(_ change: (inout [String: String]) -> Void = { _ in }) throws -> Pages {
        let directory = MetadataDemoTests.templatesDirectory
        var sources: [String: String] = [:]
        for file in try FileManager.default.contentsOfDirectory(atPath: directory) where file.hasSuffix(".html") {
            sources[String(file.dropLast(5))] = try String(contentsOfFile: directory + "/" + file, encoding: .utf8)
        }
        let json = try #require(
            JSONValue.parse(Array(try Data(contentsOf: URL(fileURLWithPath: directory + "/i18n/en.json")))))
        var strings = (json.object ?? [:]).compactMapValues(\.string)
        change(&strings)
        return try Pages(
            library: TemplateLibrary(sources: sources, catalogue: Catalogue(strings: strings, file: "i18n/en.json")))
    }

    @Test func aWordTheCodeSaysMissingFromTheCatalogueStopsStartUp() throws {
        #expect(Pages.codeWords.count > 60)
        _ = try Self.pages()
        do {
            _ = try Self.pages { $0["save.rate_limited_wait.message"] = nil }
            Issue.record("loaded without a word the code says")
        } catch {
            #expect("\(error)" == "i18n/en.json:0: no string \"save.rate_limited_wait.message\" (said by the code)")
        }
    }

    /// The keys an error can say are worked out from its cases, not listed beside them.
    @Test func everyErrorsKeysComeFromItsCases() {
        #expect(AuthError.allWordsKeys.count == 13)
        #expect(AuthError.allWordsKeys.contains("error.login_cancelled"))
        #expect(AuthError.allWordsKeys.contains(AuthError(.tenantError, "something_new").wordsKey))
        #expect(ManagementError.allWordsKeys.count == 12)
        #expect(ManagementError.allWordsKeys.contains("save.rate_limited_wait_one"))
        #expect(ManagementError.allWordsKeys.contains("load.forbidden"))
        #expect(
            WebError.allWordsKeys == [
                "request.bad_percent", "request.nul", "request.not_utf8", "request.unsupported_form",
                "request.too_large",
            ])
    }

    @Test func keptWordsAreSaidWithTheirValues() throws {
        let pages = try Self.pages()
        let busy = ManagementError(.rateLimited, status: 429, retryAfterSeconds: 3)
        let stored = Flash.notLoaded(because: Words(busy)).stored
        #expect(
            Words(stored: stored) == Words("flash.not_loaded", ["reason": "save.rate_limited_wait", "seconds": "3"]))
        #expect(Flash(stored: stored) == .notLoaded(because: Words(busy)))
        #expect(
            pages.say(flash: Flash(stored: stored))
                == "Your affirmation could not be loaded: Auth0 is busy, try again in 3 seconds.")
        #expect(pages.say(flash: Flash(stored: Flash.saved.stored)) == "Affirmation saved.")
        // A flash sealed before the catalogue (plain English) is shown as it was written.
        #expect(pages.say(flash: Flash(stored: "Affirmation saved.")) == "Affirmation saved.")
        #expect(
            pages.say(Words(ManagementError(.rateLimited, status: 429, retryAfterSeconds: 1)).key)
                == "Auth0 is busy, try again in 1 second.")
    }

    /// The Chinese catalogue says everything the English one does, with the same `{marks}`, in
    /// the Chinese seed's terms; the app's name is never translated. Its templates load.
    @Test func theChineseCatalogueMatchesTheEnglishOne() throws {
        let directory = MetadataDemoTests.templatesDirectory + "/i18n/"
        let english = try Catalogue(file: directory + "en.json")
        let chinese = try Catalogue(file: directory + "zh.json")
        #expect(english.keys == chinese.keys)
        func marks(_ text: String) -> [String] { text.matches(of: /\{[a-z]+\}/).map { String($0.output) }.sorted() }
        for key in english.keys {
            #expect(marks(english.text(key) ?? "") == marks(chinese.text(key) ?? ""), "\(key)")
        }
        #expect(chinese.text("lang") == "zh-Hans")
        #expect(chinese.text("page.welcome.title") == "Metadata demo")
        #expect(chinese.text("action.log_in") == "登录" && chinese.text("action.log_out") == "注销")
        #expect(chinese.text("profile.save") == "保存申明")
        let pages = try Pages(library: TemplateLibrary(directory: MetadataDemoTests.templatesDirectory, language: "zh"))
        #expect(pages.say("flash.saved") == "申明已保存。")
    }
}
