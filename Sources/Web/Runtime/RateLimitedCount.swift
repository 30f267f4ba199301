import Locking

/// Counts events and says, at most once an interval, how many there were since it last said: a
/// log line for what anyone can cause (a refused connection, a refused anonymous request) then
/// costs the log one line an interval, however many arrive.
public final class RateLimitedCount: Sendable {
    private let interval: Duration
    private let state = Lock<(count: Int, saidAt: ContinuousClock.Instant?)>((0, nil))

    /// A count said at most once every `interval` (the monotonic clock's: never the wall clock).
    public init(every interval: Duration = .seconds(1)) { self.interval = interval }

    /// Counts `events`; the count to report when `interval` has passed since the last report (or
    /// none was made yet), else nil.
    public func add(_ events: Int = 1) -> Int? {
        let now = ContinuousClock.now
        return state.withLock { state in
            state.count += events
            if let said = state.saidAt, now - said < interval { return nil }
            defer { state = (0, now) }
            return state.count
        }
    }
}
