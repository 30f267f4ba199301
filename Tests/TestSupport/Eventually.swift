import Foundation

/// Polls `condition` every `interval` seconds for up to `seconds`; true once it holds. For what
/// another thread or process does a moment later (a follower's next check, a log line written
/// after the answer left, a failover).
public func eventually(within seconds: Double = 5, every interval: Double = 0.1, _ condition: () -> Bool) -> Bool {
    let deadline = Date(timeIntervalSinceNow: seconds)
    while Date() < deadline {
        if condition() { return true }
        usleep(useconds_t(interval * 1_000_000))
    }
    return condition()
}
