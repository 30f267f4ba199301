import Web

/// What a worker answers while the tenant it needs has never answered since start (Auth0 or the
/// network down at boot): every page is the "Auth0 unreachable" page with 503 and `Retry-After`,
/// `/healthz` (and `/metrics`, so the scrape alerts) is 503 too. The worker keeps asking the
/// tenant and switches to the product as soon as it answers (`ResponderSwitch`), so nobody has
/// to act; meanwhile people read why, rather than waiting on a connection nobody serves.
public struct TenantPendingApp: Responder {
    /// Seconds a browser or a scraper is told to wait before asking again.
    public static let retryAfterSeconds = 30
    private let pages: LocalizedPages
    private let record: RequestRecord

    /// Answers with `pages` (the catalogue's words), logging each request to `log`.
    public init(pages: LocalizedPages, log: Log) {
        self.pages = pages
        record = RequestRecord(security: SecurityHeaders(), metrics: nil, log: log)
    }

    /// The 503 page.
    public func respond(to request: Request) -> Response { answer(request) }

    /// The 503 page (it waits on nothing).
    public func respondWithoutWaiting(to request: Request) -> Response? { answer(request) }

    /// The 503 page: a request too large is refused later, once the product serves.
    public func respond(to request: Request, rejectedWith error: WebError) -> Response { answer(request) }

    private func answer(_ request: Request) -> Response {
        let started = Stopwatch()
        var response: Response
        if request.path == "/healthz" {
            response = .text("tenant unreachable\n", status: 503)
        } else {
            response = pages[Language.of(request, cookies: request.cookies)].problem(
                status: 503, key: "error.auth0_unreachable")
        }
        response.add("Retry-After", String(Self.retryAfterSeconds))
        return record.finish(response, for: request, route: "tenant_pending", started: started, calls: 0)
    }
}
