import Web

/// The chain's last stage: the security headers, the request's metrics and its one log line.
struct RequestRecord: Sendable {
    let security: SecurityHeaders
    /// None while the worker waits for its tenant (`TenantPendingApp`).
    let metrics: AppMetrics?
    let log: Log

    /// `response` with the security headers, counted and logged.
    func finish(_ response: Response, for request: Request, route: String, started: Stopwatch, calls: Int)
        -> Response
    {
        var response = response
        security.apply(to: &response)
        let nanoseconds = started.elapsedNanoseconds
        metrics?.request(route: route, status: response.status, duration: .nanoseconds(nanoseconds))
        log.write(RequestRecord.lineStart) { line in
            line.field("id", request.requestID)
            line.field("method", request.method)
            line.field("route", route)
            line.field("path", request.path)
            line.field("status", response.status)
            line.field("us", nanoseconds / 1000)
            line.field("calls", calls)
        }
        return response
    }

    /// `level=info msg=request`, made once.
    private static let lineStart = Log.LineStart(.info, "request")
}
