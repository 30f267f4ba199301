import Web

/// The chain's last stage: the security headers, the request's metrics and its one log line.
struct RequestRecord: Sendable {
    let security: SecurityHeaders
    /// None while the worker waits for its tenant (`TenantPendingApp`).
    let metrics: AppMetrics?
    let log: Log

    /// `response` with the security headers, counted and logged.
    func finish(_ response: Response, for request: Request, route: String, started: ContinuousClock.Instant, calls: Int)
        -> Response
    {
        var response = response
        security.apply(to: &response)
        let duration = ContinuousClock.now - started
        metrics?.request(route: route, status: response.status, duration: duration)
        guard log.enabled(.info) else { return response }
        let elapsed = duration.components
        let micros = elapsed.seconds * 1_000_000 + elapsed.attoseconds / 1_000_000_000_000
        var line = log.line(.info, "request")
        line.field("id", request.requestID)
        line.field("method", request.method)
        line.field("route", route)
        line.field("path", request.path)
        line.field("status", response.status)
        line.field("us", Int(micros))
        line.field("calls", calls)
        log.write(line)
        return response
    }
}
