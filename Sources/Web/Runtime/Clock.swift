#if canImport(Glibc)
    import Glibc
#endif

/// Wall-clock time in seconds since 1970, passed in so tests control time.
public struct Clock: Sendable {
    private let read: @Sendable () -> Double

    /// A clock that reads the time from `read` (seconds since 1970).
    public init(_ read: @escaping @Sendable () -> Double) { self.read = read }

    /// The system clock.
    public static let system = Clock {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    /// Seconds since 1970.
    public func now() -> Double { read() }
}
