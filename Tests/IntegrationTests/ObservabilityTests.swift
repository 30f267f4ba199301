import Foundation
import Testing
import Web

/// One log line per request with what an operator needs, and Prometheus metrics.
@Suite(.serialized) final class ObservabilityTests {
    let stack: Stack
    init() throws { stack = try Stack() }
    deinit { stack.stop() }

    @Test func requestLogLinesCarryRouteStatusDurationAndOutboundCalls() throws {
        let browser = TestClient()
        try browser.logIn(stack, as: DemoUser.skippy)
        _ = try browser.get(stack.baseURL + "/no-such-page")
        let lines = try stack.log("worker").split(separator: "\n")
        let callback = try #require(lines.first { $0.contains("route=/callback") })
        // The code exchange, the JWKS and the metadata: three calls to the tenant.
        #expect(callback.contains("status=302"))
        #expect(callback.contains("calls=3"))
        #expect(callback.contains(" us="))
        #expect(callback.contains(" id="))
        let missing = try #require(lines.first { $0.contains("path=/no-such-page") })
        #expect(missing.contains("route=unmatched"))
        #expect(missing.contains("calls=0"))
    }

    @Test func metricsCountRequestsLoginsAndManagementCalls() throws {
        let browser = TestClient()
        try browser.logIn(stack, as: DemoUser.random)
        _ = try browser.get(stack.baseURL + "/")
        _ = try TestClient().get(stack.baseURL + "/callback?state=nope")
        let metrics = try TestClient().get(stack.baseURL + "/metrics")
        #expect(metrics.status == 200)
        #expect(metrics.header("content-type")?.hasPrefix("text/plain") == true)
        let text = metrics.body
        #expect(text.contains(#"metadata_demo_requests_total{route="/",status="200"}"#))
        #expect(text.contains("metadata_demo_logins_total"))
        #expect(text.contains(#"metadata_demo_login_failures_total{reason="unknown_state"} 1"#))
        #expect(text.contains(#"metadata_demo_management_api_calls_total{status="200"}"#))
        #expect(text.contains("metadata_demo_jwks_fetches 1"))
        #expect(text.contains("metadata_demo_request_duration_seconds_bucket"))
    }
}
