import Auth0Web
import Web

/// The product's request pipeline: routes a request with its session context, turns what a
/// route throws into a page (one path: `HTTPResponseError`, else a generic 500 logged with a
/// stable code), writes the session's cookies, adds the security headers and writes one log
/// line per request.
public struct MetadataDemo: Responder {
    private let router: Router<Route>
    private let pages: LocalizedPages
    private let sessions: SessionCookies
    private let ledger: SessionLedger
    private let security: SecurityHeaders
    private let log: Log
    private let metrics: AppMetrics

    /// The product with its pages and services, logging to `log`.
    public init(pages: LocalizedPages, services: AppServices, log: Log) {
        self.pages = pages
        self.security = services.securityHeaders
        self.log = log
        sessions = services.sessions
        ledger = services.ledger
        metrics = services.metrics
        router = Routes(pages: pages, services: services, log: log).router()
    }

    /// Answers one request: route, session context, page, cookies, headers, metrics and log line.
    public func respond(to request: Request) -> Response {
        var request = request
        request.mayWait = true
        return answer(request)!  // a request that may wait is always answered
    }

    /// Answers a request whose route calls neither the tenant nor the shared store (pages,
    /// `/healthz`, `/auth/check`, `/me`, `/metrics`, `/login`); nil for the others, and for a page
    /// whose session is due for revalidation. Nothing is counted or logged for a nil.
    public func respondWithoutWaiting(to request: Request) -> Response? {
        var request = request
        request.mayWait = false
        return answer(request)
    }

    private func answer(_ request: Request) -> Response? {
        let started = ContinuousClock.now
        OutboundCalls.reset()
        var response: Response
        var route = request.path
        switch router.match(request) {
        case .handler(let route):
            var context = SessionContext(
                cookies: request.cookies, path: request.path, sessions: sessions, ledger: ledger)
            do {
                response = try route(request, &context)
                for cookie in try context.setCookies() { response.setCookie(cookie) }
            } catch is WaitRequired {
                return nil
            } catch {
                logFailure(error, request: request)
                response = pages(request).page(for: error)
            }
        case .notFound:
            route = "unmatched"  // bounded labels: never the raw path of a 404
            response = pages(request).notFound()
        case .methodNotAllowed(let allow):
            response = pages(request).methodNotAllowed(allow: allow)
        }
        return finish(response, for: request, route: route, started: started)
    }

    /// Answers a request the server refused before reading it (a body over the limit).
    public func respond(to request: Request, rejectedWith error: WebError) -> Response {
        OutboundCalls.reset()
        return finish(pages(request).page(for: error), for: request, route: "rejected", started: .now)
    }

    private func finish(_ response: Response, for request: Request, route: String, started: ContinuousClock.Instant)
        -> Response
    {
        var response = response
        security.apply(to: &response)
        let duration = ContinuousClock.now - started
        metrics.request(route: route, status: response.status, duration: duration)
        guard log.enabled(.info) else { return response }
        let elapsed = duration.components
        let micros = elapsed.seconds * 1_000_000 + elapsed.attoseconds / 1_000_000_000_000
        log(
            .info, "request",
            [
                "id": request.requestID, "method": request.method, "route": route, "path": request.path,
                "status": String(response.status), "us": String(micros), "calls": String(OutboundCalls.count),
            ])
        return response
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
