import Foundation
import Testing
import Web

/// The pages in English or Simplified Chinese through nginx: from `Accept-Language`, or from the
/// switch on every page, which Universal Login is then asked to speak too (`ui_locales`).
@Suite(.serialized) final class LanguageSwitchTests {
    let stack: Stack
    init() throws { stack = try Stack() }
    deinit { stack.stop() }

    @Test func theBrowsersLanguageChoosesThePages() throws {
        let chinese = try TestClient().get(
            stack.baseURL + "/", headers: [("Accept-Language", "zh-CN,zh;q=0.9,en;q=0.8")])
        #expect(chinese.body.contains("<html lang=\"zh-Hans\">"))
        #expect(chinese.body.contains("<title>Metadata demo</title>"), "the app's name is not translated")
        #expect(chinese.body.contains(">登录</a>"))
        #expect(chinese.body.contains("<a href=\"/lang/en\" lang=\"en\" hreflang=\"en\">English</a>"))
        let english = try TestClient().get(stack.baseURL + "/", headers: [("Accept-Language", "zh-TW")])
        #expect(english.body.contains("<html lang=\"en\">") && english.body.contains(">Log in</a>"))
        #expect(english.body.contains("<a href=\"/lang/zh\" lang=\"zh-Hans\" hreflang=\"zh-Hans\">中文</a>"))
        let missing = try TestClient().get(stack.baseURL + "/no-such-page", headers: [("Accept-Language", "zh")])
        #expect(missing.status == 404 && missing.body.contains("找不到页面"))
    }

    @Test func theSwitchIsRememberedAndReachesUniversalLogin() throws {
        let browser = TestClient()
        #expect(!(try browser.get(stack.baseURL + "/login").header("location") ?? "").contains("ui_locales"))
        let switched = try browser.get(stack.baseURL + "/lang/zh")
        #expect(switched.status == 303 && switched.header("location") == "/")
        #expect(browser.cookies["lang"] == "zh")
        // The choice comes before the browser's language, on every page after.
        let page = try browser.get(stack.baseURL + "/", headers: [("Accept-Language", "en")])
        #expect(page.body.contains("<html lang=\"zh-Hans\">"))
        let login = try #require(try browser.get(stack.baseURL + "/login").header("location"))
        #expect(login.contains("ui_locales=zh-CN"))
        // Logged in, saved: the page and its notice in Chinese; people's data as they are.
        try browser.logIn(stack, as: DemoUser.skippy)
        let home = try browser.get(stack.baseURL + "/")
        #expect(home.body.contains("你已登录！") && home.body.contains("保存申明"))
        #expect(home.body.contains("skippy@example.com") && home.body.contains("Believe in yourself!"))
        _ = try browser.get(stack.baseURL + "/lang/en")
        #expect(try browser.get(stack.baseURL + "/").body.contains("You’re logged in!"))
        #expect(try browser.get(stack.baseURL + "/login").header("location")?.contains("ui_locales=en") == true)
    }
}
