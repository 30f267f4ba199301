import Auth0Web
import Web

/// The product's request pipeline, one chain read top to bottom:
/// route (`Routes`, declared as data) → session (`SessionContext`, checked by
/// `SessionRevalidation` for the routes that serve it) → the route's handler → error page
/// (`ErrorPages`: an `HTTPResponseError`, else a generic 500 logged with a stable code) →
/// cookies (`SessionContext.setCookies`) → headers, metrics and log line (`RequestRecord`).
public struct MetadataDemo: Responder {
    private let router: Router<Route>
    private let pages: LocalizedPages
    private let sessions: SessionCookies
    private let ledger: SessionLedger
    private let registry: SessionRegistry
    private let revalidation: SessionRevalidation
    private let record: RequestRecord
    private let log: Log

    /// The product with its pages and services, logging to `log`.
    public init(pages: LocalizedPages, services: AppServices, log: Log) {
        self.pages = pages
        self.log = log
        sessions = services.sessions
        ledger = services.ledger
        registry = services.registry
        revalidation = SessionRevalidation(services: services, log: log)
        record = RequestRecord(security: services.securityHeaders, metrics: services.metrics, log: log)
        router = Routes(pages: pages, services: services, log: log).router()
    }

    /// Answers one request where waiting is cheap, counting the calls it makes.
    public func respond(to request: Request) -> Response {
        guard request.mayWait else { return respond(to: request.settingMayWait(true)) }
        let started = ContinuousClock.now
        let (answer, calls) = OutboundCalls.counting { route(request)! }  // it may wait: always answered
        return record.finish(answer.response, for: request, route: answer.label, started: started, calls: calls)
    }

    /// Answers on a page thread when nothing waits: nil, before anything runs, for a route declared
    /// to wait (`Route.waits`), and nil from the session stage for a session due for revalidation.
    /// Nothing is counted or logged for a nil.
    public func respondWithoutWaiting(to request: Request) -> Response? {
        // The server marks its request in place; one marked here is a copy.
        guard !request.mayWait else { return respondWithoutWaiting(to: request.settingMayWait(false)) }
        let started = ContinuousClock.now
        guard let answer = route(request) else { return nil }
        return record.finish(answer.response, for: request, route: answer.label, started: started, calls: 0)
    }

    /// Answers a request the server refused before reading it (a body over the limit).
    public func respond(to request: Request, rejectedWith error: WebError) -> Response {
        record.finish(pages(request).page(for: error), for: request, route: "rejected", started: .now, calls: 0)
    }

    /// The route stage: a response and the route's label for the metrics (bounded: never the raw
    /// path of a 404).
    private func route(_ request: Request) -> (response: Response, label: String)? {
        switch router.match(request) {
        case .handler(let route):
            if route.waits && !request.mayWait { return nil }
            return serve(route, request).map { ($0, request.path) }
        case .notFound:
            return (pages(request).notFound(), "unmatched")
        case .methodNotAllowed(let allow):
            return (pages(request).methodNotAllowed(allow: allow), request.path)
        }
    }

    /// The session stage, the handler, the error page and the cookies; nil when the session stage
    /// must wait and the request may not.
    private func serve(_ route: Route, _ request: Request) -> Response? {
        var context = SessionContext(cookies: request.cookies, path: request.path, sessions: sessions, ledger: ledger)
        do {
            if route.servesSession { try revalidation.checkIfDue(request, &context) }
            var response = try route.handle(request, &context)
            // "Your sessions" shows when each was last used: a look-up, and a queued write at most every 5 minutes.
            if route.servesSession { context.noteUse(in: registry, userAgent: request.header("user-agent")) }
            for cookie in try context.setCookies() { response.setCookie(cookie) }
            return response
        } catch is WaitRequired {
            return nil
        } catch {
            logFailure(error, request: request)
            return pages(request, cookies: context.cookies).page(for: error)
        }
    }

    /// Errors that are not a person's to act on are logged with a stable code; their text may
    /// say more, but never holds secrets (every error type here keeps them out).
    private func logFailure(_ error: any Error, request: Request) {
        guard !(error is any HTTPResponseError) else { return }
        log(
            .error, "handler failed",
            [
                "id": request.requestID, "path": request.path, "code": "internal_error",
                "type": String(describing: type(of: error)), "error": "\(error)",
            ])
    }
}
