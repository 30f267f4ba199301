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

    /// What one anonymous request can make the worker spend on its language: one pass over an
    /// `Accept-Language` header no longer than nginx lets one header line be (16 KB: the site's
    /// `large_client_header_buffers`, sized for the session cookie), read whole; a longer one nginx refuses itself, and
    /// the worker never sees the request (no line in its log).
    @Test func aLongAcceptLanguageIsReadWholeAndALongerOneNeverReachesTheWorker() throws {
        let long = String(repeating: "en;q=0.1,", count: 1650) + "zh-CN;q=0.9"  // 14,861 bytes
        let chinese = try TestClient().get(stack.baseURL + "/", headers: [("Accept-Language", long)])
        #expect(chinese.status == 200 && chinese.body.contains("<html lang=\"zh-Hans\">"), "the last tag was not read")
        let longer = String(repeating: "en;q=0.1,", count: 1900) + "zh-CN"  // 17,105 bytes
        let refused = try TestClient().get(
            stack.baseURL + "/an-overlong-accept-language", headers: [("Accept-Language", longer)])
        #expect(refused.status == 400)
        #expect(!stack.logForAMessage("worker").contains("an-overlong-accept-language"))
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

    /// After the switch, Universal Login (the dev tenant) speaks Chinese through the whole login:
    /// the form, its error, the consent screen; a tenant page outside a login follows the browser.
    @Test func universalLoginSpeaksTheChosenLanguage() throws {
        let browser = TestClient()
        _ = try browser.get(stack.baseURL + "/lang/zh")
        let authorize = try #require(try browser.get(stack.baseURL + "/login").header("location"))
        let form = try browser.get(authorize)
        #expect(form.body.contains("<html lang=\"zh-Hans\">") && form.body.contains(">继续</button>"), "\(form.body)")
        let tx = try #require(TestClient.hiddenField("tx", in: form.body))
        let tenant = stack.tenantURL
        func logIn(_ password: String) throws -> TestClient.Answer {
            try browser.post(
                tenant + "/u/login",
                form: [("tx", tx), ("email", DemoUser.random.email), ("password", password), ("action", "login")],
                headers: [("Origin", tenant)])
        }
        #expect(try logIn("wrong").body.contains("电子邮件或密码错误。"))
        let consent = try logIn(DemoUser.random.password)
        #expect(consent.body.contains("<h1>授权应用程序</h1>"))
        #expect(consent.body.contains("读取并更新你的用户元数据") && consent.body.contains(">接受</button>"))
        let accepted = try browser.acceptConsent(consent, tenant: tenant)
        let home = try browser.get(try #require(accepted.header("location")))
        #expect(home.status == 302)
        #expect(try browser.get(stack.baseURL + "/").body.contains("你已登录！"))
        let lost = try TestClient().get(tenant + "/authorize", headers: [("Accept-Language", "zh-CN")])
        #expect(lost.body.contains("未知的客户端"))
    }
}
