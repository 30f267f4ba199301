import Locking
import Web

/// The Management API's tenant-wide rate limit for machine-to-machine tokens, as a bucket of
/// `limit` calls that refills at `perSecond` (Auth0's free tenants: 2 a second). Each answer
/// says `x-ratelimit-limit`, the calls left, and when the bucket is full again (epoch seconds).
final class RateBucket: Sendable {
    let limit: Int
    let perSecond: Double
    private let state: Lock<(tokens: Double, at: Double)>
    private let clock: Clock

    init(limit: Int, perSecond: Double, clock: Clock) {
        self.limit = limit
        self.perSecond = perSecond
        self.clock = clock
        state = Lock((Double(limit), clock.now()))
    }

    /// Takes one call from the bucket: whether it is allowed, the calls left, when it is full again.
    func take() -> (allowed: Bool, remaining: Int, reset: Int64) {
        state.withLock { state in
            let now = clock.now()
            state.tokens = min(Double(limit), state.tokens + (now - state.at) * perSecond)
            state.at = now
            let allowed = state.tokens >= 1
            if allowed { state.tokens -= 1 }
            let reset = now + (Double(limit) - state.tokens) / perSecond
            return (allowed, Int(state.tokens.rounded(.down)), Int64(reset.rounded(.up)))
        }
    }
}
