import Auth0Web
import Web

/// A route handler of the product: the request's context in, the answer out. The session's
/// cookies are written by `MetadataDemo`, after the route, in one place.
typealias RouteHandler = @Sendable (RequestContext) throws -> Response

/// A route and what the pipeline must know of it before running it, as data.
struct Route: Sendable {
    /// It calls the tenant or writes to the session ledger's store: the server answers it on the
    /// waiting pool, without trying a page thread first.
    let waits: Bool
    /// It serves the person's session: the session stage checks it with the tenant first when
    /// it is due for revalidation (`SessionRevalidation`), so every such route sees one judgement.
    let servesSession: Bool
    let handle: RouteHandler

    init(waits: Bool = false, servesSession: Bool = false, _ handle: @escaping RouteHandler) {
        self.waits = waits
        self.servesSession = servesSession
        self.handle = handle
    }
}

/// The product's route handlers, with what they share.
struct Routes: Sendable {
    let services: AppServices

    /// The router of every page.
    func router() -> Router<Route> {
        var router = Router<Route>()
        router.add("GET", "/", Route(servesSession: true, home))
        router.add("GET", "/logged-out", Route { $0.pages.welcome(titleKey: "page.logged_out.title") })
        router.add("GET", "/lang/en", Route { _ in self.chooseLanguage(.en) })
        router.add("GET", "/lang/zh", Route { _ in self.chooseLanguage(.zh) })
        let healthy = Response.text("ok\n")  // made once: each answer shares its body and fields
        router.add("GET", "/healthz", Route { _ in healthy })
        // Pushing the authorization request first is a call to the provider.
        router.add("GET", "/login", Route(waits: services.links.pushEndpoint != nil, login))
        router.add("GET", "/logout", Route(confirmLogout))
        router.add("GET", "/auth/check", Route(servesSession: true, authCheck))
        for app in services.miniApps.apps {
            // With an API, a check asks for the waiting pool when its token is not at hand; the
            // refusal page (rare) reads the store.
            router.add(
                "GET", "/auth/check/" + app.name, Route(servesSession: true) { try self.miniAppCheck(app, $0) })
            router.add(
                "GET", "/auth/refused/" + app.name,
                Route(waits: app.api != nil) { try self.miniAppRefused(app, $0) })
        }
        router.add("GET", "/me", Route(servesSession: true, me))
        router.add("GET", "/sessions", Route(waits: true, sessions))
        router.add("POST", "/sessions/end", Route(waits: true, endSession))
        router.add("POST", "/sessions/end-others", Route(waits: true, endOtherSessions))
        router.add("GET", "/.well-known/jwks.json", Route { _ in self.assertionKeys() })
        router.add("GET", "/callback", Route(waits: true, callback))
        router.add("POST", "/logout", Route(waits: true, logout))
        router.add("POST", Routes.affirmationPath, Route(waits: true, affirmation))
        router.add("POST", "/backchannel-logout", Route(waits: true, backchannelLogout))
        router.add(
            "GET", "/metrics",
            Route { _ in
                Response(
                    status: 200, headers: [("Content-Type", "text/plain; version=0.0.4")],
                    body: self.services.metrics.render(
                        jwksFetches: self.services.keys.fetchCount, ledger: self.services.ledger)
                )
            })
        return router
    }

    /// The one route that calls the Management API, hence the only path the browser sends the
    /// access token to.
    static let affirmationPath = "/affirmation"

    /// The pages' switch: the language chosen is kept a year in a cookie (it comes before the
    /// browser's), and the person goes back to the start, now in that language.
    func chooseLanguage(_ language: Language) -> Response {
        var response = Response.redirect(to: "/", status: 303)
        var cookie = SetCookie(
            name: Language.cookie, value: language.rawValue, maxAge: 365 * 86_400,
            secure: services.settings.secureCookies)
        cookie.sameSite = .lax
        response.setCookie(cookie)
        return response
    }
}
