import Auth0Web
import Foundation
import TestSupport
import Testing

@testable import MetadataDemoApp

/// The shipped Prometheus alerts watch metrics the worker emits, under the names it emits them
/// (a renamed metric would leave an alert that can never fire).
@Suite struct AlertRulesTests {
    static let repoRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    /// A ledger with nothing in it, for the gauges read at scrape time.
    static func ledger() throws -> SessionLedger {
        try SessionLedger(
            store: MemorySharedStore(), retentionSeconds: 60, secrets: [TestSettings.cookieSecret],
            events: NoAuth0Events())
    }

    @Test func everyMetricTheAlertsWatchIsOneTheWorkerEmits() throws {
        let rules = try String(
            contentsOfFile: Self.repoRoot + "/deploy/prometheus/metadata-demo.rules.yml", encoding: .utf8)
        let watched = Set(rules.matches(of: /metadata_demo_[a-z_]+/).map { String($0.output) })
        #expect(watched.count >= 5, "\(watched)")

        let metrics = AppMetrics()
        metrics.request(route: "/", status: 500, duration: .milliseconds(1))
        metrics.login()
        metrics.loginFailed(reason: "unknown_state")
        metrics.renewalFailed(reason: "tenant_unreachable")
        metrics.managementCall(outcome: "200")
        let text = String(decoding: metrics.render(jwksFetches: 0, ledger: try Self.ledger()), as: UTF8.self)
        let emitted = Set(
            text.split(separator: "\n").filter { !$0.hasPrefix("#") }
                .compactMap { $0.split(whereSeparator: { $0 == "{" || $0 == " " }).first.map(String.init) })
        for name in watched {
            #expect(emitted.contains(name), "the alerts watch \(name), which the worker does not emit")
        }
    }

    /// The Management API 429 counter exists at zero from the start: Prometheus sees no increase
    /// in a series whose first sample is already 1, so the first 429 would go unnoticed.
    @Test func theRateLimitCounterStartsAtZero() throws {
        let text = String(
            decoding: AppMetrics().render(jwksFetches: 0, ledger: try Self.ledger()), as: UTF8.self)
        #expect(text.contains(#"metadata_demo_management_api_calls_total{status="429"} 0"#))
    }
}
