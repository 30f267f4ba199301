import Foundation
import Testing
import Web

/// Every request is timed by a stopwatch: the `us=` of its log line and its latency metric.
@Suite struct StopwatchTests {
    @Test func itCountsAtLeastTheTimeThatPassed() {
        let stopwatch = Stopwatch()
        let first = stopwatch.elapsedNanoseconds
        #expect(first >= 0)
        Thread.sleep(forTimeInterval: 0.002)
        let later = stopwatch.elapsedNanoseconds
        #expect(later >= 2_000_000 && later >= first)
    }
}
