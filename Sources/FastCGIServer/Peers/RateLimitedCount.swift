import Locking

/// Counts events and says, at most once a second, how many there were since it last said.
final class RateLimitedCount: Sendable {
    private let state = Lock<(count: Int, saidAt: Int64)>((0, 0))

    /// Counts `events`; the count to report when a second has passed since the last report, else nil.
    func add(_ events: Int = 1) -> Int? {
        let now = Uptime.milliseconds()
        return state.withLock { state in
            state.count += events
            guard now - state.saidAt >= 1000 else { return nil }
            defer { state = (0, now) }
            return state.count
        }
    }
}
