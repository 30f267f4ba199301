import Auth0Web
import PerThread
import Prometheus
import Synchronization
import Web

/// The product's metrics in Prometheus's text format, served at `/metrics` (nginx lets only
/// loopback reach it). Labels are bounded: routes are the known paths or `unmatched`.
public final class AppMetrics: Sendable {
    private let registry = PrometheusCollectorRegistry()
    private let latency: DurationHistogram
    private let logins: Counter
    private let renewals: Counter
    private let announcementsRefused: Counter
    private let jwksFetches: Gauge
    private let ledgerAvailable: Gauge
    private let ledgerEntries: Gauge
    private let ledgerBytes: Gauge
    private let ledgerPending: Gauge
    private let ledgerFailovers: Gauge
    private let ledgerResets: Counter
    private let revalidations: Counter
    private let checkAnswerLargest: Gauge
    /// The largest header bytes a mini app's check handed nginx, set into the gauge at scrape time.
    private let largestCheckAnswer = Atomic<Int>(0)
    /// Request counters by route and status, cached per thread: the registry's own look-up
    /// validates names and labels on every call, and one shared cache behind a lock made the
    /// serving threads queue for it.
    private let requestCounters = ThreadLocal { CounterCache() }

    // The descriptors are immutable values; the library just does not mark them Sendable.
    private static func name(_ metric: String, unit: String = "", help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(namespace: "metadata_demo", metricName: metric, unitName: unit, helpText: help)
    }
    // Made when asked (a counter is made once per name and labels): a stored static of a type the
    // library does not mark Sendable would need `nonisolated(unsafe)`.
    private static var requests: MetricNameDescriptor {
        name("requests", unit: "total", help: "Requests answered, by route and status")
    }
    private static var loginFailures: MetricNameDescriptor {
        name("login_failures", unit: "total", help: "Failed logins by reason")
    }
    private static var renewalFailures: MetricNameDescriptor {
        name("token_renewal_failures", unit: "total", help: "Failed access-token renewals by reason")
    }
    private static var ledgerFailures: MetricNameDescriptor {
        name(
            "session_ledger_failures", unit: "total",
            help: "Session ledger store operations that failed, by operation (append, follow, add, lock, set)")
    }
    private static var backchannelLogouts: MetricNameDescriptor {
        name(
            "backchannel_logouts", unit: "total", help: "Back-channel logout tokens, by outcome (ended, or why refused)"
        )
    }
    private static var frontchannelLogouts: MetricNameDescriptor {
        name(
            "frontchannel_logouts", unit: "total",
            help: "Front-channel logout requests, by outcome (ended, refused, no_session)")
    }
    private static var managementCalls: MetricNameDescriptor {
        name(
            "management_api_calls", unit: "total",
            help: "Management API calls by answer (HTTP status, or timeout/unreachable)")
    }

    /// The product's metrics, all at zero.
    public init() {
        latency = registry.makeDurationHistogram(
            descriptor: Self.name("request_duration", unit: "seconds", help: "Time the worker spent on a request"),
            buckets: [
                .microseconds(100), .microseconds(250), .milliseconds(1), .milliseconds(5), .milliseconds(25),
                .milliseconds(100), .milliseconds(500), .seconds(2), .seconds(10),
            ])
        logins = registry.makeCounter(descriptor: Self.name("logins", unit: "total", help: "Completed logins"))
        announcementsRefused = registry.makeCounter(
            descriptor: Self.name(
                "announcements_refused", unit: "total", help: "announcement_url values refused as not http(s) links"))
        renewals = registry.makeCounter(
            descriptor: Self.name("token_renewals", unit: "total", help: "Access tokens renewed with a refresh token"))
        jwksFetches = registry.makeGauge(
            descriptor: Self.name("jwks_fetches", help: "Times the tenant's JWKS was fetched"))
        ledgerAvailable = registry.makeGauge(
            descriptor: Self.name(
                "session_ledger_available", help: "1 while the session ledger's store answers, 0 while it does not"))
        ledgerAvailable.set(Int64(1))
        ledgerEntries = registry.makeGauge(
            descriptor: Self.name(
                "session_ledger_entries",
                help:
                    "Ended sessions, tenant sessions and people this worker remembers (each kept for the sessions' absolute lifetime)"
            ))
        ledgerBytes = registry.makeGauge(
            descriptor: Self.name(
                "session_ledger", unit: "bytes",
                help: "The bytes of those entries as the store keeps them: what a worker reads at start"))
        ledgerPending = registry.makeGauge(
            descriptor: Self.name(
                "session_ledger_pending_entries",
                help: "Ended sessions this worker could not write to the store yet (other workers do not know of them)")
        )
        ledgerFailovers = registry.makeGauge(
            descriptor: Self.name(
                "session_ledger_failovers",
                help: "Times this worker found the ledger's Redis primary on another server (Sentinel failovers seen)"))
        ledgerResets = registry.makeCounter(
            descriptor: Self.name(
                "session_ledger_store_resets", unit: "total",
                help:
                    "Times the store came back without its log or part of it and this worker wrote what it remembered again"
            ))
        // At zero from the start: a series that first appears at 1 shows Prometheus no increase,
        // and the shipped alert on Management API 429s watches for any.
        _ = registry.makeCounter(descriptor: Self.managementCalls, labels: [("status", "429")])
        revalidations = registry.makeCounter(
            descriptor: Self.name(
                "session_revalidations", unit: "total", help: "Sessions checked again with the tenant after an interval"
            ))
        checkAnswerLargest = registry.makeGauge(
            descriptor: Self.name(
                "mini_app_check_answer_largest", unit: "bytes",
                help:
                    "The largest headers a mini app's check handed nginx (its access token, assertion and identity); nginx's buffer must hold them"
            ))
    }

    func checkAnswer(bytes: Int) {
        var seen = largestCheckAnswer.load(ordering: .relaxed)
        while bytes > seen {
            let (exchanged, now) = largestCheckAnswer.compareExchange(
                expected: seen, desired: bytes, ordering: .relaxed)
            if exchanged { return }
            seen = now
        }
    }

    func request(route: String, status: Int, duration: Duration) {
        let cache = requestCounters.value()
        if let known = cache.counter(route: route, status: status) {
            known.increment()
        } else {
            let made = registry.makeCounter(
                descriptor: Self.requests, labels: [("route", route), ("status", String(status))])
            cache.counters.append((route, status, made))
            made.increment()
        }
        latency.record(duration)
    }

    func login() { logins.increment() }

    func loginFailed(reason: String) {
        registry.makeCounter(descriptor: Self.loginFailures, labels: [("reason", reason)]).increment()
    }

    func renewed() { renewals.increment() }

    func announcementRefused() { announcementsRefused.increment() }

    func renewalFailed(reason: String) {
        registry.makeCounter(descriptor: Self.renewalFailures, labels: [("reason", reason)]).increment()
    }

    func ledgerFailed(operation: String) {
        ledgerAvailable.set(Int64(0))
        registry.makeCounter(descriptor: Self.ledgerFailures, labels: [("operation", operation)]).increment()
    }

    func ledgerRecovered() { ledgerAvailable.set(Int64(1)) }

    func ledgerStoreReset() { ledgerResets.increment() }

    func backchannelLogout(outcome: String) {
        registry.makeCounter(descriptor: Self.backchannelLogouts, labels: [("outcome", outcome)]).increment()
    }

    func frontchannelLogout(outcome: String) {
        registry.makeCounter(descriptor: Self.frontchannelLogouts, labels: [("outcome", outcome)]).increment()
    }

    func revalidated() { revalidations.increment() }

    func managementCall(outcome: String) {
        registry.makeCounter(descriptor: Self.managementCalls, labels: [("status", outcome)]).increment()
    }

    /// The text exposition, with the JWKS fetch count and the ledger's gauges read at scrape time.
    func render(jwksFetches count: Int, ledger: SessionLedger) -> [UInt8] {
        jwksFetches.set(Int64(count))
        ledgerEntries.set(Int64(ledger.rememberedEntries))
        ledgerBytes.set(Int64(ledger.rememberedBytes))
        ledgerPending.set(Int64(ledger.pendingEntries))
        ledgerFailovers.set(Int64(ledger.storeFailovers))
        checkAnswerLargest.set(Int64(largestCheckAnswer.load(ordering: .relaxed)))
        return registry.emitToBuffer()
    }
}

/// One thread's request counters (the registry hands every thread the same Counter objects). A
/// row, not a dictionary: a thread meets a dozen routes and statuses, and a route's name is one
/// of the product's literals, so comparing it is mostly a comparison of the same storage, where
/// a dictionary hashed the whole name on every request.
private final class CounterCache {
    var counters: [(route: String, status: Int, counter: Counter)] = []

    func counter(route: String, status: Int) -> Counter? {
        counters.first { $0.status == status && $0.route == route }?.counter
    }
}
