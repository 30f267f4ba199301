import Locking
import Web

/// The Management API's rate limit, as Auth0 counts it: calls per key in windows of one minute.
final class RateWindows: Sendable {
    private let windows = Lock([String: (start: Double, count: Int)]())
    private let clock: Clock

    init(clock: Clock) { self.clock = clock }

    /// Counts a call against `key`'s window; whether it is allowed, the calls left and when the
    /// window resets (epoch seconds).
    func count(key: String, limit: Int) -> (allowed: Bool, remaining: Int, reset: Int64) {
        windows.withLock {
            let now = clock.now()
            var window = $0[key] ?? (now, 0)
            if now - window.start >= 60 { window = (now, 0) }
            window.count += 1
            $0[key] = window
            return (window.count <= limit, max(0, limit - window.count), Int64((window.start + 60).rounded(.up)))
        }
    }
}
