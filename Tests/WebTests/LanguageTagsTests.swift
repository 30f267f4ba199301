import Testing
import Web

/// The most wanted tag of an `Accept-Language` header, as browsers and people write them.
@Suite struct LanguageTagsTests {
    @Test(arguments: [
        ("en-US,en;q=0.9", "en-US"), ("zh-CN;q=0.8, en;q=0.9", "en"), ("en;q=0.5, zh-Hans;q=0.5", "en"),
        ("zh;q=0, en;q=0.1", "en"), (" zh-TW ; q=1 ,en", "zh-TW"), ("en;level=1;q=0.2, fr;q=0.3", "fr"),
        ("*", "*"), ("EN;Q=0.5,de;q=0.4", "EN"), ("a;q=0.001,b;q=0.0009", "a"), ("de;q=0.5000,fr;q=0.4", "de"),
        ("fr;q=1.,de", "fr"), ("de;q=0.7,fr;q=0.75", "fr"), ("\t\tpt-BR\t;\tq=0.3", "pt-BR"),
    ])
    func theHighestWeightWinsTheFirstAmongEquals(header: String, expected: String) {
        #expect(LanguageTags.mostWanted(acceptLanguage: header) == expected, "\(header)")
    }

    /// No tag, or only tags weighed 0 or with a weight that is not a number from 0 to 1.
    @Test(arguments: [
        "", ",,;", "zh;q=0", "fr;q=abc", "fr;q=2", "fr;q=1.5", "fr;q=.5", "fr;q=", "fr;q=0.5 1", "fr;q=-1", ";q=1",
    ])
    func noTagIsWanted(header: String) {
        #expect(LanguageTags.mostWanted(acceptLanguage: header) == nil, "\(header)")
    }

    /// A weight that is not one leaves its tag out, not the others: "q =1" is no weight at all.
    @Test func aTagWithABadWeightGivesWayToTheNext() {
        #expect(LanguageTags.mostWanted(acceptLanguage: "fr;q=x, de;q=0.1") == "de")
        #expect(LanguageTags.mostWanted(acceptLanguage: "fr;q =0.1, de;q=0.5") == "fr")
    }

    @Test(arguments: [
        ("zh", true), ("ZH-cn", true), ("zh-Hans", true), ("zh-SG", true), ("zh-Hans-CN", true), ("zh-hans-", true),
        ("zh-TW", false), ("zh-Hant", false), ("zh-hansx", false), ("z", false), ("", false),
    ])
    func simplifiedChineseIsKnownInAnyCase(tag: String, expected: Bool) {
        #expect(LanguageTags.isSimplifiedChinese(tag) == expected, "\(tag)")
    }
}
