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
    let now: Double = Clock.system.now().rounded(.down)

    init() throws {
        services = try TestServices.make(http: TestKeys.shared)
        let pages = try LocalizedPages(directory: MetadataDemoTests.templatesDirectory)
        app = MetadataDemo(pages: pages, services: services, log: Log(minimum: .error))
    }

    private func session(sid: String) -> Session {
        Session(
            profile: .init(
                sub: "auth0|1", name: "N", email: "n@example.com", emailVerified: true, picture: "", updatedAt: ""),
            accessToken: nil, refreshToken: nil, tenantSessionID: sid, csrfToken: "csrf-\(sid)",
            createdAt: Int64(now - 100))
    }

    private func cookie(of session: Session) throws -> String {
        let cookie = try services.sessions.store(session)[0]
        return "\(cookie.name)=\(cookie.value)"
    }

    private func isLoggedIn(_ session: Session) throws -> Bool {
        app.respond(to: Request(method: "GET", path: "/me", headers: ["cookie": try cookie(of: session)])).status == 200
    }

    private func frontChannel(_ query: String, cookie: String? = nil) -> Response {
        app.respond(
            to: Request(
                method: "GET", path: "/frontchannel-logout", query: query,
                headers: cookie.map { ["cookie": $0] } ?? HeaderFields()))
    }

    @Test func issAndSidEndThatProviderSessionAloneWithNoCookie() throws {
        let laptop = session(sid: "sid-laptop")
        let phone = session(sid: "sid-phone")
        let issuer = TestSettings.auth0.issuer
        for refused in ["iss=https%3A%2F%2Felsewhere.example%2F&sid=sid-laptop", "sid=sid-laptop", "iss=" + issuer] {
            #expect(frontChannel(refused).status == 200)
            #expect(try isLoggedIn(laptop), "\(refused) ended the login")
        }
        let answer = frontChannel("iss=" + PercentEncoding.encode(issuer) + "&sid=sid-laptop")
        #expect(answer.status == 200 && answer.header("Cache-Control") == "no-cache, no-store")
        #expect(answer.header("Content-Security-Policy")?.contains("frame-ancestors https://") == true)
        #expect(answer.header("Content-Security-Policy")?.contains("'none'; base-uri") == false)
        #expect(answer.header("X-Frame-Options") != "DENY")
        #expect(try !isLoggedIn(laptop))
        #expect(try isLoggedIn(phone))
    }

    @Test func withoutIssAndSidTheCookiesSessionEnds() throws {
        let laptop = session(sid: "sid-laptop")
        let copy = try cookie(of: laptop)
        let answer = frontChannel("", cookie: copy)
        #expect(answer.status == 200)
        #expect(answer.headers.contains { $0.name == "Set-Cookie" && $0.value.contains("Max-Age=0") })
        #expect(try !isLoggedIn(laptop), "a copy of its cookie is refused")
        #expect(frontChannel("").status == 200, "no session: nothing to end, the same page")
    }
}
