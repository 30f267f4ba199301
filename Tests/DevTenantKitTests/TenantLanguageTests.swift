import Foundation
import Testing
import Web

@testable import DevTenantKit

/// The dev tenant speaks English or Simplified Chinese, as Universal Login does: `ui_locales`
/// first (the first tag it has), else the browser's language.
@Suite struct TenantLanguageTests {
    @Test(
        arguments: [
            ("zh-CN", nil, "zh"), ("fr zh-CN en", nil, "zh"), ("en zh-CN", nil, "en"), ("en-GB", "zh-CN", "en"),
            (nil, "zh-CN,zh;q=0.9", "zh"), (nil, "zh-TW", "en"), ("fr", "zh", "zh"), (nil, nil, "en"),
        ] as [(String?, String?, String)])
    func theLanguageOfARequest(uiLocales: String?, acceptLanguage: String?, expected: String) {
        #expect(DevTenant.language(uiLocales: uiLocales, acceptLanguage: acceptLanguage) == expected)
    }

    /// Every sentence the tenant's code says (`message(…)`, `say(…)`, the consent items) has its
    /// Chinese in `Templates/dev-tenant/i18n/zh.json`, and both catalogues have the same words.
    @Test func everySentenceOfTheCodeHasItsChinese() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
        let chinese = try Catalogue(file: root + "/Templates/dev-tenant/i18n/zh.json")
        let english = try Catalogue(file: root + "/Templates/dev-tenant/i18n/en.json")
        #expect(english.keys == chinese.keys.filter { !$0.hasPrefix("text:") })
        var sentences: Set<String> = []
        let folder = root + "/Sources/DevTenantKit"
        for file in try FileManager.default.subpathsOfDirectory(atPath: folder) where file.hasSuffix(".swift") {
            let source = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
            for match in source.matches(of: /message\(\s*\d+,\s*"([^"]*)",\s*"((?:[^"\\]|\\.)*)"/) {
                sentences.insert(String(match.output.1))
                sentences.insert(String(match.output.2).replacingOccurrences(of: "\\\"", with: "\""))
            }
            for match in source.matches(of: /(?:say|items\.append)\("([^"]*)"\)/) {
                sentences.insert(String(match.output.1))
            }
        }
        #expect(sentences.count > 25, "\(sentences.count) sentences found")
        // Technical error codes are Auth0's, in every language.
        let codes = ["invalid_request", "invalid_request_uri"]
        for sentence in sentences where !codes.contains(sentence) && !sentence.contains("\\(") {
            #expect(chinese.text("text:" + sentence) != nil, "no Chinese for \"\(sentence)\"")
        }
    }
}
