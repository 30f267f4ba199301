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

    /// The switch's cookie (the first of that name) before the browser's header.
    @Test(arguments: [
        ("zh-CN" as String?, "lang=en" as String?, Language.en), ("zh-CN", "lang=xx", .zh),
        ("en", "mds=abc; lang=zh", .zh),
        ("en", "lang=zh; lang=en", .zh), (nil, nil, .en), ("zh", "lang= zh ", .zh),
    ])
    func theSwitchComesBeforeTheBrowser(acceptLanguage: String?, cookie: String?, expected: Language) {
        var headers: HeaderFields = [:]
        headers["accept-language"] = acceptLanguage
        headers["cookie"] = cookie
        let request = Request(method: "GET", path: "/", headers: headers)
        #expect(Language.of(request, cookies: request.cookies) == expected)
    }
}
