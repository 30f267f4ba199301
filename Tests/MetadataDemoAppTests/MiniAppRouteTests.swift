import Auth0Web
import Foundation
import MetadataDemoApp
import OpenSSLCrypto
import TestSupport
import Testing
import Web

/// Each mini app's door (`/auth/check/NAME`, `/auth/refused/NAME`): who may enter by the app's
/// rules, what nginx is told of them, and the refusal page in both languages. (The log line
/// naming the rule is read in the integration tests, from the worker's log.)
@Suite struct MiniAppRouteTests {
    let apps = MiniApps(
        apps: [
            MiniApp(
                name: "announcements", titles: [.en: "Announcements", .zh: "公告"], path: "/announcements/",
                assertionAudience: "https://demo.example.com/announcements/",
                rules: [.appMetadataFlag("display_announcement")]),
            MiniApp(
                name: "staff", titles: [.en: "Staff room", .zh: "员工室"], path: "/staff/",
                assertionAudience: "https://staff.example.com/",
                rules: [.emailDomains(["example.com"]), .anyRole(["staff"])]),
        ], rolesClaim: "https://demo.example.com/roles")
    let services: AppServices
    let app: MetadataDemo

    init() throws {
        services = try TestServices.make(extra: ["ASSERTION_KEY": try ECPrivateKey().pem()], miniApps: apps)
        let pages = try LocalizedPages(directory: MetadataDemoTests.templatesDirectory)
        app = MetadataDemo(pages: pages, services: services, log: Log(minimum: .error))
    }

    private func person(email: String = "ada@example.com", flags: [String] = [], roles: [String] = []) -> Session {
        Session(
            profile: .init(
                sub: "auth0|ada", name: "Ada", email: email, emailVerified: true, picture: "", updatedAt: ""),
            accessToken: nil, refreshToken: nil, tenantSessionID: nil, csrfToken: "csrf-ada",
            metadata: MetadataSnapshot(flags: flags), createdAt: Int64(Clock.system.now()), roles: roles)
    }

    private func get(_ path: String, as session: Session?, language: String = "en") throws -> Response {
        var headers = ["accept-language": language, "x-original-uri": "/announcements/news?a=1&b=2"]
        if let session {
            headers["cookie"] = try services.auth0.sessions.store(session).map { "\($0.name)=\($0.value)" }
                .joined(separator: "; ")
        }
        return app.respond(to: Request(method: "GET", path: path, headers: HeaderFields(headers)))
    }

    /// Issue 59, item 4: an app's location added before its entry in the mini-apps file was a
    /// bare nginx 500 (the check's 404 is no status `auth_request` takes). Its check now refuses
    /// with `unknown_app`, and its refusal page says the app is not set up, in either language.
    @Test func aCheckForAnAppTheFileDoesNotNameIsRefusedWithAPageThatSaysSo() throws {
        for session in [nil, person()] {
            let check = try get("/auth/check/mine", as: session)
            #expect(check.status == 403 && check.header("X-Auth-Refusal") == "unknown_app")
        }
        let page = try get("/auth/refused/mine", as: person())
        #expect(page.status == 403)
        #expect(String(decoding: page.body, as: UTF8.self).contains("mine is not set up on this site"))
        let chinese = try get("/auth/refused/mine", as: nil, language: "zh")
        #expect(String(decoding: chinese.body, as: UTF8.self).contains("本网站尚未设置「mine」"))
        // What is no app's name stays a plain 404.
        #expect(try get("/auth/check/Not_A_Name", as: nil).status == 404)
        #expect(try get("/auth/refused/", as: nil).status == 404)
    }

    /// The headers nginx hands an app carry no control characters, whatever the provider put in
    /// a name; everything else of it, non-ASCII included, is handed on as it is.
    @Test func theIdentityHeadersCarryNoControlCharacters() throws {
        var named = person(flags: ["display_announcement"])
        named.profile.name = "Ada\u{1}\tLöwe 李\u{7F}\r\n"
        let answer = try get("/auth/check/announcements", as: named)
        #expect(answer.status == 204)
        #expect(answer.header("X-Auth-Name") == "AdaLöwe 李")
        #expect(answer.header("X-Auth-Email") == "ada@example.com")
    }

    @Test func aVisitorIsSentToLogInAndBackToThePage() throws {
        let answer = try get("/auth/check/announcements", as: nil)
        #expect(answer.status == 401)
        #expect(answer.header("X-Auth-Login") == "/login?returnTo=%2Fannouncements%2Fnews%3Fa%3D1%26b%3D2")
    }

    @Test func aPersonTheRulesLetInIsNamedWithAnAssertionForThisAppAlone() throws {
        let answer = try get("/auth/check/announcements", as: person(flags: ["display_announcement"]))
        #expect(answer.status == 204)
        #expect(answer.header("X-Auth-User-Id") == "auth0|ada" && answer.header("X-Auth-Email") == "ada@example.com")
        let assertion = try #require(answer.header("X-Auth-Assertion"))
        let payload = try #require(Base64URL.decode(assertion.split(separator: ".")[1]))
        #expect(JSONValue.parse(payload)?["aud"]?.string == "https://demo.example.com/announcements/")
        let staff = try get("/auth/check/staff", as: person(roles: ["staff"]))
        let staffPayload = try #require(
            staff.header("X-Auth-Assertion").flatMap { Base64URL.decode($0.split(separator: ".")[1]) })
        #expect(staff.status == 204 && JSONValue.parse(staffPayload)?["aud"]?.string == "https://staff.example.com/")
    }

    @Test func aPersonTheRulesKeepOutIsRefusedAndToldNothing() throws {
        let answer = try get("/auth/check/announcements", as: person())
        #expect(
            answer.status == 403 && answer.header("X-Auth-Assertion") == nil && answer.header("X-Auth-User-Id") == nil)
        #expect(try get("/auth/check/staff", as: person(email: "ada@elsewhere.org", roles: ["staff"])).status == 403)
        #expect(try get("/auth/check/staff", as: person(roles: ["guest"])).status == 403)
    }

    @Test func theRefusalPageSaysWhatIsMissingInThePersonsLanguageAndNoMore() throws {
        let english = try get("/auth/refused/staff", as: person(email: "ada@elsewhere.org"))
        #expect(english.status == 403)
        let text = TestHTML.text(english)
        #expect(text.contains("You cannot open Staff room"))
        #expect(
            text.contains("Staff room is open only to people with a verified email address of certain organisations."))
        #expect(
            !text.contains("example.com") && !text.contains("elsewhere.org"),
            "neither the allowed domains nor the address")
        let chinese = try get("/auth/refused/announcements", as: person(), language: "zh-CN")
        #expect(chinese.status == 403 && TestHTML.text(chinese).contains("你的帐户尚未获得「公告」的访问权限。"))
        let roles = try get("/auth/refused/staff", as: person(roles: ["guest"]))
        #expect(TestHTML.text(roles).contains("open to people with a role your account does not have"))
        #expect(!TestHTML.text(roles).contains("staff<") && !TestHTML.text(roles).contains("guest"))
    }

    @Test func theRefusalPageSendsAVisitorToLogInAndAPersonLetInToTheApp() throws {
        let visitor = try get("/auth/refused/announcements", as: nil)
        #expect(visitor.status == 303 && visitor.header("Location") == "/login?returnTo=%2Fannouncements%2F")
        let allowed = try get("/auth/refused/announcements", as: person(flags: ["display_announcement"]))
        #expect(allowed.status == 303 && allowed.header("Location") == "/announcements/")
    }

    /// Issue 52: the logged-in page lists the apps the person may open, by their titles in the
    /// page's language, and not one the rules keep them out of.
    @Test func theLoggedInPageOffersTheAppsThePersonMayOpen() throws {
        let everything = TestHTML.text(try get("/", as: person(flags: ["display_announcement"], roles: ["staff"])))
        #expect(
            everything.contains("Your apps") && everything.contains("Announcements")
                && everything.contains("Staff room"))
        let some = try get("/", as: person(flags: ["display_announcement"]))
        let html = String(decoding: some.body, as: UTF8.self)
        #expect(html.contains(#"<a href="/announcements/">Announcements</a>"#), "\(html)")
        #expect(!html.contains("/staff/"), "a door the rules keep shut is not shown")
        let chinese = String(
            decoding: try get("/", as: person(roles: ["staff"]), language: "zh-CN").body, as: UTF8.self)
        #expect(chinese.contains("你的应用") && chinese.contains(#"<a href="/staff/">员工室</a>"#))
        #expect(!chinese.contains("/announcements/"))
        let none = TestHTML.text(try get("/", as: person()))
        #expect(!none.contains("Your apps"), "no list when the person may open none")
    }

    /// Each item of the list is rendered once at start-up, per app, language and step: a page
    /// shows each app's own item, beside its own note, in the page's language.
    @Test func eachListedAppSaysWhatItAsksFirstInThePagesLanguage() throws {
        let apps = MiniApps(apps: [
            MiniApp(
                name: "vault", titles: [.en: "Vault", .zh: "保险库"], path: "/vault/",
                assertionAudience: "https://demo.example.com/vault/", rules: [],
                authentication: StepUp(maxAge: 600, acrValues: StepUp.multiFactorPolicy)),
            MiniApp(
                name: "notes", titles: [.en: "Notes", .zh: "笔记"], path: "/notes/",
                assertionAudience: "https://demo.example.com/notes/", rules: [],
                authentication: StepUp(maxAge: 600)),
            MiniApp(
                name: "news", titles: [.en: "News"], path: "/news/",
                assertionAudience: "https://demo.example.com/news/",
                rules: []),
        ])
        let services = try TestServices.make(miniApps: apps)
        let app = MetadataDemo(
            pages: try LocalizedPages(directory: MetadataDemoTests.templatesDirectory), services: services,
            log: Log(minimum: .error))
        let cookie = try services.auth0.sessions.store(person()).map { "\($0.name)=\($0.value)" }
            .joined(separator: "; ")
        func items(_ language: String) -> [String] {
            let page = app.respond(
                to: Request(
                    method: "GET", path: "/", headers: ["cookie": cookie, "accept-language": language]))
            let html = String(decoding: page.body, as: UTF8.self)
            return html.components(separatedBy: "<li>").dropFirst().map { String($0.prefix { $0 != "\n" }) }
        }
        #expect(
            items("en") == [
                #"<a href="/vault/">Vault</a> <span class="mini-app-note">(asks for a second factor)</span></li>"#,
                #"<a href="/notes/">Notes</a> <span class="mini-app-note">(asks you to log in again)</span></li>"#,
                #"<a href="/news/">News</a></li>"#,
            ])
        #expect(
            items("zh") == [
                #"<a href="/vault/">保险库</a> <span class="mini-app-note">（需要第二重验证）</span></li>"#,
                #"<a href="/notes/">笔记</a> <span class="mini-app-note">（需要重新登录）</span></li>"#,
                #"<a href="/news/">news</a></li>"#,
            ])
    }

    /// Review of af621e6..main, routes `GET /` and `GET /auth/refused/NAME` as a visitor who is not
    /// logged in reaches them: the mini apps' list is made at start-up and picked only for a
    /// session, so no anonymous request (none, a forged cookie, one over the opening limit) is
    /// shown a list, judged by an app's rules or made to write anything to the ledger's store.
    @Test func anAnonymousRequestIsShownNoListAndWritesNothing() throws {
        let store = MemorySharedStore()
        let services = try TestServices.make(
            extra: ["ASSERTION_KEY": try ECPrivateKey().pem()], miniApps: apps, store: store)
        let app = MetadataDemo(
            pages: try LocalizedPages(directory: MetadataDemoTests.templatesDirectory), services: services,
            log: Log(minimum: .error))
        let real = try services.auth0.sessions.store(person(flags: ["display_announcement"]))[0]
        let keysBefore = store.keyCount
        for cookie in [
            nil, "\(real.name)=\(String(real.value.dropLast(8)))AAAAAAAA",
            "\(real.name)=" + String(repeating: "A", count: 70_000),
        ] {
            for path in ["/", "/auth/refused/announcements", "/auth/refused/staff"] {
                var headers: HeaderFields = ["accept-language": "en"]
                if let cookie { headers["cookie"] = cookie }
                let answer = app.respond(to: Request(method: "GET", path: path, headers: headers))
                let html = String(decoding: answer.body, as: UTF8.self)
                #expect(!html.contains("Your apps") && !html.contains("mini-app-note"), "\(path)")
                #expect(answer.status == 200 || answer.status == 303, "\(path): \(answer.status)")
            }
        }
        #expect(store.keyCount == keysBefore, "nothing written to the ledger's store")
    }

    /// The check tells the app the language the product's pages speak, so the two agree.
    @Test func theCheckSaysThePagesLanguage() throws {
        let english = try get("/auth/check/announcements", as: person(flags: ["display_announcement"]))
        #expect(english.header("X-Auth-Language") == "en")
        let chinese = try get("/auth/check/announcements", as: person(flags: ["display_announcement"]), language: "zh")
        #expect(chinese.header("X-Auth-Language") == "zh")
    }

    /// Nobody enters an app the file does not name: its check refuses (403, `unknown_app`; it was
    /// a 404, which nginx turned into a bare 500: issue 59, item 4) and its refusal page says so.
    @Test func anAppNotConfiguredHasNoDoor() throws {
        let check = try get("/auth/check/other", as: person(flags: ["display_announcement"]))
        #expect(check.status == 403 && check.header("X-Auth-Assertion") == nil)
        #expect(try get("/auth/refused/other", as: person()).status == 403)
    }

    /// An app with an API: its first check waits (the token is fetched: on a page thread it
    /// answers nil, to be answered again where it may wait); once this worker has the token, a
    /// check is answered on the page thread, the token for that API alone in X-Auth-Access-Token.
    @Test func aCheckWithARememberedTokenIsAnsweredOnAPageThread() throws {
        let tenant = TenantScript()
        let clock = ManualClock(TenantScript.now)
        let notes = MiniApps(apps: [
            MiniApp(
                name: "notes", titles: [.en: "Notes", .zh: "笔记"], path: "/notes/",
                assertionAudience: "https://demo.example.com/notes/", rules: [],
                api: MiniAppAPI(audience: "https://notes.example/", scopes: ["read:notes"]))
        ])
        let services = try TestServices.make(http: tenant, clock: clock.clock, miniApps: notes)
        let pages = try LocalizedPages(directory: MetadataDemoTests.templatesDirectory)
        let app = MetadataDemo(pages: pages, services: services, log: Log(minimum: .error))
        var session = person()
        session.refreshToken = "RT0"
        session.createdAt = Int64(TenantScript.now)
        session.checkedAt = Int64(TenantScript.now)
        let cookie = try services.auth0.sessions.store(session).map { "\($0.name)=\($0.value)" }.joined(separator: "; ")
        let request = Request(method: "GET", path: "/auth/check/notes", headers: ["cookie": cookie])
        #expect(app.respondWithoutWaiting(to: request) == nil, "the first check fetches the token: it waits")
        let first = app.respond(to: request)
        #expect(first.status == 204)
        let token = try #require(first.header("X-Auth-Access-Token"))
        let payload = try #require(Base64URL.decode(token.split(separator: ".")[1]))
        #expect(JSONValue.parse(payload)?["aud"]?.string == "https://notes.example/")
        #expect(tenant.sent(to: "oauth/token").count == 1)
        let again = try #require(app.respondWithoutWaiting(to: request), "remembered: answered on the page thread")
        #expect(again.status == 204 && again.header("X-Auth-Access-Token") == token)
        #expect(tenant.sent(to: "oauth/token").count == 1, "and nothing asked of the tenant again")
    }
}
