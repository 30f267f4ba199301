import Auth0Web
import Web

/// A route of the product: the request and its session context in, the answer out. The
/// context's cookies are written by `MetadataDemo`, after the route, in one place.
typealias Route = @Sendable (Request, inout SessionContext) throws -> Response

/// The product's route handlers, with what they share.
struct Routes: Sendable {
    /// The pages in every language; `pages(request)` speaks the request's.
    let pages: LocalizedPages
    let services: AppServices
    let log: Log

    /// The router of every page.
    func router() -> Router<Route> {
        var router = Router<Route>()
        router.add("GET", "/") { try self.home($0, &$1) }
        router.add("GET", "/logged-out") { request, _ in self.pages(request).welcome(titleKey: "page.logged_out.title")
        }
        router.add("GET", "/lang/en") { request, _ in self.chooseLanguage(.en, request) }
        router.add("GET", "/lang/zh") { request, _ in self.chooseLanguage(.zh, request) }
        router.add("GET", "/healthz") { _, _ in Response.text("ok\n").notStored() }
        router.add("GET", "/login") { try self.login($0, &$1) }
        router.add("GET", "/logout") { self.confirmLogout($0, &$1) }
        router.add("GET", "/auth/check") { self.authCheck($0, &$1) }
        router.add("GET", "/me") { self.me(&$1) }
        // These call the tenant or write to the session ledger's store: answered where waiting is cheap.
        router.add("GET", "/callback", Routes.waiting { try self.callback($0, &$1) })
        router.add("POST", "/logout", Routes.waiting { try self.logout($0, &$1) })
        router.add("POST", Routes.affirmationPath, Routes.waiting { try self.affirmation($0, &$1) })
        router.add("POST", "/backchannel-logout", Routes.waiting { request, _ in self.backchannelLogout(request) })
        router.add("GET", "/metrics") { _, _ in
            Response(
                status: 200, headers: [("Content-Type", "text/plain; version=0.0.4")],
                body: self.services.metrics.render(
                    jwksFetches: self.services.keys.fetchCount, ledgerEntries: self.services.ledger.rememberedEntries)
            ).notStored()
        }
        return router
    }

    /// The one route that calls the Management API, hence the only path the browser sends the
    /// access token to.
    static let affirmationPath = "/affirmation"

    /// The pages' switch: the language chosen is kept a year in a cookie (it comes before the
    /// browser's), and the person goes back to the start, now in that language.
    func chooseLanguage(_ language: Language, _ request: Request) -> Response {
        var response = Response.redirect(to: "/", status: 303)
        var cookie = SetCookie(
            name: Language.cookie, value: language.rawValue, maxAge: 365 * 86_400,
            secure: services.settings.baseURL.hasPrefix("https:"))
        cookie.sameSite = .lax
        response.setCookie(cookie)
        return response.notStored()
    }

    /// A route that waits on another service: asked to answer without waiting, it throws
    /// `WaitRequired` before doing anything.
    static func waiting(_ route: @escaping Route) -> Route {
        { request, context in
            try request.requireWaiting()
            return try route(request, &context)
        }
    }
}

extension Response {
    /// The response with `Cache-Control: no-store` (answers about a person or the process).
    func notStored() -> Response {
        var response = self
        response.add("Cache-Control", "no-store")
        return response
    }
}
