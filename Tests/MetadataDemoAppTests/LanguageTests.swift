import Testing
import Web

@testable import MetadataDemoApp

/// Which language a request gets: the switch's cookie first, else the browser's most wanted one.
@Suite struct LanguageTests {
    @Test(arguments: [
        ("zh", Language.zh), ("zh-CN", .zh), ("zh-Hans", .zh), ("zh-SG", .zh), ("zh-Hans-CN", .zh),
        ("zh-CN,zh;q=0.9,en;q=0.8", .zh), ("en;q=0.5, zh;q=0.9", .zh), ("ZH-cn", .zh),
        ("zh-TW", .en), ("zh-Hant", .en), ("en-US,en;q=0.9", .en), ("fr", .en), ("", .en), ("zh;q=0", .en),
        ("en, zh", .en), ("*", .en), (";;,", .en),
    ])
    func theBrowsersFirstLanguage(header: String, expected: Language) {
        #expect(Language.fromAcceptLanguage(header) == expected, "\(header)")
    }

    @Test func theSwitchComesBeforeTheBrowser() {
        let chosen = Request(method: "GET", path: "/", headers: ["accept-language": "zh-CN", "cookie": "lang=en"])
        #expect(Language.of(chosen) == .en)
        let browser = Request(method: "GET", path: "/", headers: ["accept-language": "zh-CN", "cookie": "lang=xx"])
        #expect(Language.of(browser) == .zh)
        #expect(Language.of(Request(method: "GET", path: "/")) == .en)
    }
}
