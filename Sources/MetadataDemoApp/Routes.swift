import Auth0Web
import Web

/// The product's route handlers, with what they share.
struct Routes: Sendable {
    let pages: Pages
    let services: AppServices
    let log: Log

    /// The router of every page.
    func router() -> Router {
        var router = Router()
        router.add("GET", "/") { try self.home($0) }
        router.add("GET", "/logged-out") { _ in self.pages.welcome(title: "You\u{2019}re logged out.") }
        router.add("GET", "/healthz") { _ in
            var response = Response.text("ok\n")
            response.add("Cache-Control", "no-store")
            return response
        }
        router.add("GET", "/login") { try self.login($0) }
        router.add("GET", "/callback") { try self.callback($0) }
        router.add("GET", "/logout") { self.confirmLogout($0) }
        router.add("POST", "/logout") { try self.logout($0) }
        router.add("POST", Routes.affirmationPath) { try self.affirmation($0) }
        router.add("GET", "/auth/check") { try self.authCheck($0) }
        router.add("GET", "/me") { self.me($0) }
        router.add("GET", "/metrics") { _ in
            var response = Response(
                status: 200, headers: [("Content-Type", "text/plain; version=0.0.4")],
                body: self.services.metrics.render(jwksFetches: self.services.keys.fetchCount))
            response.add("Cache-Control", "no-store")
            return response
        }
        return router
    }

    /// The one route that calls the Management API, hence the only path the browser sends the
    /// access token to.
    static let affirmationPath = "/affirmation"

    /// The person's session, or nil for a logged-out visitor (whatever their cookies say).
    func session(_ request: Request) -> (Session, SessionCookies.Loaded)? {
        let loaded = services.sessions.load(from: request.cookies)
        guard let session = loaded.session else { return nil }
        return (session, loaded)
    }

    /// Stores `session` in the response's cookies.
    func store(_ session: Session, replacing loaded: SessionCookies.Loaded?, in response: inout Response) throws {
        for cookie in try services.sessions.store(session, replacing: loaded) {
            response.setCookie(cookie)
        }
    }

    /// Clears every session cookie the browser sent, and its access token.
    func clearSession(_ loaded: SessionCookies.Loaded, in response: inout Response) {
        for cookie in services.sessions.clear(loaded) { response.setCookie(cookie) }
    }
}
