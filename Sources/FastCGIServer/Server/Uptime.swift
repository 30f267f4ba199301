import Web

/// Milliseconds on the monotonic clock, for deadlines (never the wall clock, which may jump).
enum Uptime {
    static func milliseconds() -> Int64 { Int64(Stopwatch.nanosecondsNow() / 1_000_000) }
}
