import Prometheus
import Web

/// The product's metrics in Prometheus's text format, served at `/metrics` (nginx lets only
/// loopback reach it). Labels are bounded: routes are the known paths or `unmatched`.
public final class AppMetrics: Sendable {
    private let registry = PrometheusCollectorRegistry()
    private let latency: DurationHistogram
    private let logins: Counter
    private let renewals: Counter
    private let jwksFetches: Gauge

    public init() {
        latency = registry.makeDurationHistogram(
            name: "metadata_demo_request_duration_seconds",
            buckets: [
                .microseconds(100), .microseconds(250), .milliseconds(1), .milliseconds(5), .milliseconds(25),
                .milliseconds(100), .milliseconds(500), .seconds(2), .seconds(10),
            ],
            help: "Time the worker spent on a request")
        logins = registry.makeCounter(name: "metadata_demo_logins_total", help: "Completed logins")
        renewals = registry.makeCounter(
            name: "metadata_demo_token_renewals_total", help: "Access tokens renewed with a refresh token")
        jwksFetches = registry.makeGauge(
            name: "metadata_demo_jwks_fetches", help: "Times the tenant's JWKS was fetched")
    }

    func request(route: String, status: Int, duration: Duration) {
        registry.makeCounter(
            name: "metadata_demo_requests_total", labels: [("route", route), ("status", String(status))],
            help: "Requests answered, by route and status"
        ).increment()
        latency.record(duration)
    }

    func login() { logins.increment() }

    func loginFailed(reason: String) {
        registry.makeCounter(
            name: "metadata_demo_login_failures_total", labels: [("reason", reason)], help: "Failed logins by reason"
        ).increment()
    }

    func renewed() { renewals.increment() }

    func managementCall(outcome: String) {
        registry.makeCounter(
            name: "metadata_demo_management_api_calls_total", labels: [("status", outcome)],
            help: "Management API calls by answer (HTTP status, or timeout/unreachable)"
        ).increment()
    }

    /// The text exposition, with the JWKS fetch count read at scrape time.
    func render(jwksFetches count: Int) -> [UInt8] {
        jwksFetches.set(Int64(count))
        return registry.emitToBuffer()
    }
}
