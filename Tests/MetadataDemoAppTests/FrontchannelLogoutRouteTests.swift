import Auth0Web
import MetadataDemoApp
import TestSupport
import Testing
import Web

/// `GET /frontchannel-logout`: what the provider's logout page loads in an iframe (OpenID Connect
/// Front-Channel Logout 1.0) ends exactly the logins it names, and answers a page only the
/// provider may frame.
@Suite struct FrontchannelLogoutRouteTests {
    let services: AppServices
    let app: MetadataDemo
    let store = MemorySharedStore()
    let now: Double = Clock.system.now().rounded(.down)
    let issuer = TestSettings.auth0.issuer

    init() throws {
        services = try TestServices.make(
            http: TestKeys.shared, extra: ["FRONTCHANNEL_LOGOUT": "on"], store: store)
        let pages = try LocalizedPages(directory: MetadataDemoTests.templatesDirectory)
        app = MetadataDemo(pages: pages, services: services, log: Log(minimum: .error))
    }

    /// A login made in the provider session `sid` (nil: an ID token without one), recorded as
    /// the callback records it.
    private func session(sid: String?, csrf: String? = nil) -> Session {
        if let sid { services.ledger.providerSessions.began(sid) }
        return Session(
            profile: .init(
                sub: "auth0|1", name: "N", email: "n@example.com", emailVerified: true, picture: "", updatedAt: ""),
            accessToken: nil, refreshToken: nil, tenantSessionID: sid, csrfToken: csrf ?? "csrf-\(sid ?? "none")",
            createdAt: Int64(now - 100))
    }

    private func cookie(of session: Session) throws -> String {
        let cookie = try services.auth0.sessions.store(session)[0]
        return "\(cookie.name)=\(cookie.value)"
    }

    private func isLoggedIn(_ session: Session) throws -> Bool {
        app.respond(to: Request(method: "GET", path: "/me", headers: ["cookie": try cookie(of: session)])).status == 200
    }

    /// The request a browser makes: `dest`/`site` its Fetch Metadata (nil: a browser without).
    private func frontChannel(_ query: String, cookie: String? = nil, dest: String? = "iframe", site: String? = nil)
        -> Response
    {
        var headers = HeaderFields()
        if let cookie { headers["cookie"] = cookie }
        if let dest { headers["sec-fetch-dest"] = dest }
        if let site { headers["sec-fetch-site"] = site }
        return app.respond(
            to: Request(method: "GET", path: "/frontchannel-logout", query: query, headers: headers))
    }

    private func query(sid: String, iss: String? = nil) -> String {
        "iss=" + PercentEncoding.encode(iss ?? issuer) + "&sid=" + PercentEncoding.encode(sid)
    }

    /// Everything the ledger's store holds: its log and its keys (an anonymous request must add to neither).
    private func storeSize() throws -> Int { try store.events(after: nil, wait: 0).events.count + store.keyCount }

    @Test func issAndSidEndThatProviderSessionAloneWithNoCookie() throws {
        let laptop = session(sid: "sid-laptop")
        let phone = session(sid: "sid-phone")
        for refused in [query(sid: "sid-laptop", iss: "https://elsewhere.example/"), "sid=sid-laptop", "iss=" + issuer]
        {
            #expect(frontChannel(refused).status == 200)
            #expect(try isLoggedIn(laptop), "\(refused) ended the login")
        }
        let answer = frontChannel(query(sid: "sid-laptop"))
        #expect(answer.status == 200 && answer.header("Cache-Control") == "no-cache, no-store")
        #expect(answer.header("Content-Security-Policy")?.contains("frame-ancestors https://") == true)
        #expect(answer.header("Content-Security-Policy")?.contains("'none'; base-uri") == false)
        #expect(answer.header("X-Frame-Options") != "DENY")
        #expect(try !isLoggedIn(laptop))
        #expect(try isLoggedIn(phone))
    }

    /// The fifth review's finding 1: each made-up `sid` was stored for the sessions' lifetime.
    @Test func anUnknownOrOverlongSidWritesNothingAnywhere() throws {
        _ = session(sid: "sid-real")
        let before = try storeSize()
        let entries = services.ledger.rememberedEntries
        for made in ["made-up-1", "made-up-2", String(repeating: "x", count: 16_000)] {
            #expect(frontChannel(query(sid: made)).status == 200)
        }
        #expect(try storeSize() == before, "the ledger's store grew")
        #expect(services.ledger.rememberedEntries == entries)
        // A real one ends once; sent again, it is forgotten and writes nothing more.
        _ = frontChannel(query(sid: "sid-real"))
        let afterEnd = try store.events(after: nil, wait: 0).events.count
        for _ in 0..<5 { _ = frontChannel(query(sid: "sid-real")) }
        #expect(try store.events(after: nil, wait: 0).events.count == afterEnd)
    }

    @Test func withoutIssAndSidTheCookiesSessionEndsInAnIframeOfThisSite() throws {
        let laptop = session(sid: "sid-laptop")
        let copy = try cookie(of: laptop)
        let answer = frontChannel("", cookie: copy, site: "same-site")
        #expect(answer.status == 200)
        #expect(answer.headers.contains { $0.name == "Set-Cookie" && $0.value.contains("Max-Age=0") })
        #expect(try !isLoggedIn(laptop), "a copy of its cookie is refused")
        #expect(frontChannel("", site: "same-origin").status == 200, "no session: nothing to end, the same page")
    }

    /// The fifth review's finding 3: a link, `window.open` or a GET form from any site carried the
    /// `SameSite=Lax` cookie and logged the visitor out.
    @Test func aNavigationOrAnotherSitesFrameEndsNothing() throws {
        let laptop = session(sid: "sid-laptop")
        let copy = try cookie(of: laptop)
        let requests: [(dest: String?, site: String?)] = [
            ("document", "cross-site"), ("document", "same-site"), ("iframe", "cross-site"), ("iframe", "none"),
            (nil, nil), ("iframe", nil),
        ]
        for (dest, site) in requests {
            _ = frontChannel("", cookie: copy, dest: dest, site: site)
            _ = frontChannel(query(sid: "sid-other"), cookie: copy, dest: dest, site: site)
            #expect(try isLoggedIn(laptop), "dest \(dest ?? "none"), site \(site ?? "none") ended the session")
        }
    }

    /// The fifth review's finding 6: LemonLDAP::NG sends its user id as `sid`, and its ID tokens
    /// carry none; its iframe on this site ends the cookie's login.
    @Test func aMatchingIssWithTheCookieEndsALoginHoldingThatSidOrNone() throws {
        let lemon = session(sid: nil, csrf: "csrf-lemon")
        let other = session(sid: "sid-b")
        _ = frontChannel(query(sid: "dwho"), cookie: try cookie(of: other), site: "same-site")
        #expect(try isLoggedIn(other), "a login of another provider session stays")
        _ = frontChannel(
            query(sid: "dwho", iss: "https://elsewhere.example/"), cookie: try cookie(of: lemon), site: "same-site")
        #expect(try isLoggedIn(lemon), "another issuer ends nothing")
        _ = frontChannel(query(sid: "dwho"), cookie: try cookie(of: lemon), site: "same-site")
        #expect(try !isLoggedIn(lemon))
        let same = session(sid: "sid-c")
        _ = frontChannel(query(sid: "sid-c"), cookie: try cookie(of: same), site: "same-origin")
        #expect(try !isLoggedIn(same))
    }

    @Test func offItIsNotThere() throws {
        let auth0 = try TestServices.make(http: TestKeys.shared)
        #expect(!auth0.frontchannelLogout, "Auth0's discovery document offers no front-channel logout")
        let pages = try LocalizedPages(directory: MetadataDemoTests.templatesDirectory)
        let app = MetadataDemo(pages: pages, services: auth0, log: Log(minimum: .error))
        let answer = app.respond(to: Request(method: "GET", path: "/frontchannel-logout", query: query(sid: "s")))
        #expect(answer.status == 404)
    }
}
