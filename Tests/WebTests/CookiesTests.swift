import Testing
import Web

@Suite struct CookiesTests {
    @Test func parsesPairsTrimmedAndUnquoted() {
        let cookies = Cookies(header: " a=1;b = 2 ; c=\"quoted\"; junk; =novalue; d=")
        #expect(cookies["a"] == "1")
        #expect(cookies["b"] == "2")
        #expect(cookies["c"] == "quoted")
        #expect(cookies["d"] == "")
        #expect(cookies["junk"] == nil)
        #expect(cookies.pairs.count == 4)
    }

    @Test func countsDuplicatesAndFindsByPrefix() {
        let cookies = Cookies(header: "s=1; s=2; tx.a=x; tx.b=y; other=z")
        #expect(cookies.count(of: "s") == 2)
        #expect(cookies["s"] == "1")
        #expect(cookies.named(withPrefix: "tx.").map(\.name) == ["tx.a", "tx.b"])
    }

    @Test func skipsNamesThatAreNotTokens() {
        let cookies = Cookies(header: "bad name=1; ok=2; a\u{1}b=3")
        #expect(cookies.pairs.map(\.name) == ["ok"])
    }

    @Test func buildsSafeSetCookieByDefault() {
        let cookie = SetCookie(name: "__Host-session", value: "abc.def", maxAge: 60, secure: true)
        #expect(cookie.headerValue == "__Host-session=abc.def; Path=/; Max-Age=60; Secure; HttpOnly; SameSite=Lax")
        #expect(SetCookie.expired("s", secure: false).headerValue == "s=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax")
    }

    @Test func cookieOctetsExcludeSeparators() {
        for byte in Array(" \";,\\".utf8) { #expect(!SetCookie.isCookieOctet(byte)) }
        for byte in Array("AZaz09-._~!#$%&'()*+/:<=>?@[]^`{|}".utf8) { #expect(SetCookie.isCookieOctet(byte)) }
    }

    /// One cookie among others: the first sent under its exact name, trimmed and unquoted.
    @Test(
        arguments: [
            ("a=1; lang=zh; b=2", "zh"), ("xlang=en; lang=zh", "zh"), ("lang=\"en\"", "en"), ("lang=", ""),
            ("a=1", nil), ("", nil), ("lang", nil), (";;lang=zh;", "zh"), ("  lang = zh ; lang=en", "zh"),
            ("LANG=zh", nil),
        ] as [(String, String?)])
    func oneCookieAmongOthers(header: String, expected: String?) {
        #expect(Cookies(header: header)["lang"] == expected, "\(header)")
    }
}
