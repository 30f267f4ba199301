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
    /// What it answers with.
    let answer: Answer

    /// A route's handler, and what it is given.
    enum Answer: Sendable {
        /// The request's context: its cookies, session, language and log.
        case withContext(RouteHandler)
        /// Nothing of the request (the probes, `/healthz` and `/metrics`, asked every few
        /// seconds): the pipeline makes no context for it, so no cookie is read, no session is
        /// opened and none is written back.
        case withoutContext(@Sendable () -> Response)
    }

    init(waits: Bool = false, servesSession: Bool = false, _ handle: @escaping RouteHandler) {
        self.waits = waits
        self.servesSession = servesSession
        answer = .withContext(handle)
    }

    /// A route that answers without the request's context.
    init(withoutContext answer: @escaping @Sendable () -> Response) {
        waits = false
        servesSession = false
        self.answer = .withoutContext(answer)
    }
}

/// The product's route handlers, with what they share.
struct Routes: Sendable {
    let services: AppServices
    /// The logged-in page's item for each mini app, rendered at start-up.
    let miniAppList: MiniAppList
    /// The warnings anyone can cause without logging in (a refused front- or back-channel logout,
    /// a check for an app the mini-apps file does not name): each said at most once a minute per
    /// worker, with how many there were, so such requests cost the log a line a minute, not a
    /// line each (the request's own line at `info` stays).
    let anonymousWarnings = AnonymousWarnings()

    /// The routes of `services`, whose pages are `pages`.
    init(services: AppServices, pages: LocalizedPages) {
        self.services = services
        miniAppList = MiniAppList(apps: services.miniApps.apps, pages: pages)
    }

    /// Every route of the product but the mini apps' doors, as data: method, path, and the route
    /// for these services. Mini apps may not take a path whose first segment is one of these.
    static let table: [(method: String, path: String, route: @Sendable (Routes) -> Route)] = [
        ("GET", "/", { Route(servesSession: true, $0.home) }),
        ("GET", "/logged-out", { _ in Route { $0.pages.welcome(titleKey: "page.logged_out.title") } }),
        ("GET", "/lang/en", { routes in Route { _ in routes.chooseLanguage(.en) } }),
        ("GET", "/lang/zh", { routes in Route { _ in routes.chooseLanguage(.zh) } }),
        ("GET", "/healthz", { _ in healthz }),
        // Pushing the authorization request first is a call to the provider.
        ("GET", "/login", { Route(waits: $0.services.auth0.loginStart.callsTheProvider, $0.login) }),
        ("GET", "/logout", { Route($0.confirmLogout) }),
        ("GET", "/auth/check", { Route(servesSession: true, $0.authCheck) }),
        ("GET", "/me", { Route(servesSession: true, $0.me) }),
        ("GET", "/sessions", { Route(waits: true, $0.sessions) }),
        ("POST", "/sessions/end", { Route(waits: true, $0.endSession) }),
        ("POST", "/sessions/end-others", { Route(waits: true, $0.endOtherSessions) }),
        ("GET", "/.well-known/jwks.json", { routes in Route { _ in routes.assertionKeys() } }),
        ("GET", "/client-jwks.json", { routes in Route { _ in routes.clientKeys() } }),
        ("GET", "/callback", { Route(waits: true, $0.callback) }),
        ("POST", "/logout", { Route(waits: true, $0.logout) }),
        ("POST", affirmationPath, { Route(waits: true, $0.affirmation) }),
        ("POST", "/backchannel-logout", { Route(waits: true, $0.backchannelLogout) }),
        // Writes to the session ledger's store.
        ("GET", "/frontchannel-logout", { Route(waits: true, $0.frontchannelLogout) }),
        ("GET", "/metrics", { routes in Route(withoutContext: { routes.metrics() }) }),
    ]

    /// Served by nginx from `PUBLIC_DIR`, not by a route.
    static let servedByNginx = ["static", "favicon.ico"]

    /// The first path segments the product answers under.
    static var ownSegments: Set<String> {
        Set(table.map { String($0.path.split(separator: "/").first ?? "") }.filter { !$0.isEmpty })
            .union(servedByNginx)
    }

    /// `/healthz`'s answer, made once: each answer shares its body and fields.
    private static let healthzAnswer = Response.text("ok\n")
    private static let healthz = Route(withoutContext: { healthzAnswer })

    /// The router of every page: the table, and each mini app's door.
    func router() -> Router<Route> {
        var router = Router<Route>()
        for entry in Self.table { router.add(entry.method, entry.path, entry.route(self)) }
        for app in services.miniApps.apps {
            // With an API, a check asks for the waiting pool when its token is not at hand; the
            // refusal page (rare) reads the store.
            router.add(
                "GET", "/auth/check/" + app.name, Route(servesSession: true) { try self.miniAppCheck(app, $0) })
            router.add(
                "GET", "/auth/refused/" + app.name,
                Route(waits: app.api != nil) { try self.miniAppRefused(app, $0) })
        }
        return router
    }

    /// The Prometheus text of this worker.
    private func metrics() -> Response {
        Response(
            status: 200, headers: [("Content-Type", "text/plain; version=0.0.4")],
            body: services.metrics.render(jwksFetches: services.auth0.keys.fetchCount, ledger: services.ledger))
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

/// One `RateLimitedCount` per warning an anonymous request can cause (see `Routes.anonymousWarnings`).
struct AnonymousWarnings: Sendable {
    let frontchannelRefused = RateLimitedCount(every: .seconds(60))
    let backchannelRefused = RateLimitedCount(every: .seconds(60))
    let unknownMiniApp = RateLimitedCount(every: .seconds(60))
}
