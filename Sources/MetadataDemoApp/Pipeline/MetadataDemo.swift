import Auth0Web
import Web

/// The product's request pipeline, one chain read top to bottom:
/// route (`Routes`, declared as data) → the request's context (`RequestContext`: cookies, session,
/// language, log) → session (checked by `SessionRevalidation` for the routes that serve it) →
/// the route's handler → error page (`ErrorPages`: an `HTTPResponseError`, else a generic 500
/// logged with a stable code) → cookies (`SessionContext.setCookies`) → headers, metrics and log
/// line (`RequestRecord`). A route that needs nothing of the request (`Route(withoutContext:)`,
/// the probes) goes from the route stage straight to the last.
public struct MetadataDemo: Responder {
    private let router: Router<Route>
    private let pages: LocalizedPages
    private let sessions: SessionCookies
    private let ledger: SessionLedger
    private let registry: SessionRegistry
    private let revalidation: SessionRevalidation
    private let record: RequestRecord
    private let log: Log
    /// A check or refusal page for a mini app the mini-apps file does not name (`Routes`).
    private let unknownMiniApp: @Sendable (RequestContext) -> Response?

    /// The product with its pages and services, logging to `log`.
    public init(pages: LocalizedPages, services: AppServices, log: Log) {
        self.pages = pages
        self.log = log
        sessions = services.auth0.sessions
        ledger = services.ledger
        registry = services.registry
        revalidation = SessionRevalidation(services: services)
        record = RequestRecord(security: services.securityHeaders, metrics: services.metrics, log: log)
        let routes = Routes(services: services, pages: pages)
        router = routes.router()
        unknownMiniApp = { routes.unknownMiniApp($0) }
    }

    /// Every route the product answers, and whether it is declared to wait (`Route.waits`): for
    /// the tests of the page thread's promise, and for anyone checking a front server's rules.
    public var routes: [(method: String, path: String, waits: Bool)] {
        router.routes.map { ($0.method, $0.path, $0.route.waits) }
    }

    /// Answers one request where waiting is cheap, counting the calls it makes.
    public func respond(to request: Request) -> Response {
        let started = Stopwatch()
        let (answer, calls) = OutboundCalls.counting { route(request, mayWait: true)! }  // it may wait: always answered
        return record.finish(answer.response, for: request, route: answer.label, started: started, calls: calls)
    }

    /// Answers on a page thread when nothing waits: nil, before anything runs, for a route declared
    /// to wait (`Route.waits`), and nil from the session stage for a session due for revalidation.
    /// Nothing is counted or logged for a nil.
    public func respondWithoutWaiting(to request: Request) -> Response? {
        let started = Stopwatch()
        guard let answer = route(request, mayWait: false) else { return nil }
        return record.finish(answer.response, for: request, route: answer.label, started: started, calls: 0)
    }

    /// Answers a request the server refused before reading it (a body over the limit).
    public func respond(to request: Request, rejectedWith error: WebError) -> Response {
        let page = context(request, mayWait: false).pages.page(for: error)
        return record.finish(page, for: request, route: "rejected", started: Stopwatch(), calls: 0)
    }

    /// The route stage: a response and the route's label for the metrics (bounded: never the raw
    /// path of a 404); nil for a route that waits when the request may not.
    private func route(_ request: Request, mayWait: Bool) -> (response: Response, label: String)? {
        switch router.resolve(request) {
        case .found(let index):
            let route = router.route(at: index)
            if route.waits && !mayWait { return nil }
            switch route.answer {
            case .withoutContext(let answer): return (answer(), request.path)
            case .withContext(let handle):
                return serve(route, handle, context(request, mayWait: mayWait)).map { ($0, request.path) }
            }
        case .notFound:
            let context = context(request, mayWait: mayWait)
            if let answer = unknownMiniApp(context) { return (answer, "unknown_mini_app") }
            return (context.pages.notFound(), "unmatched")
        case .methodNotAllowed(let allow):
            return (context(request, mayWait: mayWait).pages.methodNotAllowed(allow: allow), request.path)
        }
    }

    private func context(_ request: Request, mayWait: Bool) -> RequestContext {
        RequestContext(request, mayWait: mayWait, pages: pages, sessions: sessions, ledger: ledger, log: log)
    }

    /// The session stage, the handler, the error page and the cookies; nil when the session stage
    /// must wait and the request may not.
    private func serve(_ route: Route, _ handle: RouteHandler, _ context: RequestContext) -> Response? {
        do {
            if route.servesSession { try revalidation.checkIfDue(context) }
            var response = try handle(context)
            // "Your sessions" shows when each was last used: a look-up, and a queued write at most every 5 minutes.
            if route.servesSession { context.noteSessionUse(in: registry) }
            for cookie in try context.sessionCookies() { response.setCookie(cookie) }
            return response
        } catch is WaitRequired {
            return nil
        } catch {
            logFailure(error, context)
            return context.pages.page(for: error)
        }
    }

    /// Errors that are not a person's to act on are logged with a stable code; their text may
    /// say more, but never holds secrets (every error type here keeps them out).
    private func logFailure(_ error: any Error, _ context: RequestContext) {
        guard !(error is any HTTPResponseError) else { return }
        context.log(
            .error, "handler failed",
            [
                "path": context.request.path, "code": "internal_error",
                "type": String(describing: type(of: error)), "error": "\(error)",
            ])
    }
}
