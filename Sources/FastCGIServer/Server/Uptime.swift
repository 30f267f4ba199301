import Glibc

/// Milliseconds on the monotonic clock, for deadlines (never the wall clock, which may jump).
enum Uptime {
    static func milliseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }
}
