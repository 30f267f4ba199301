import Locking
import Web

/// A clock tests move by hand.
public final class ManualClock: Sendable {
    private let seconds: Lock<Double>

    /// A clock at `start` seconds since 1970.
    public init(_ start: Double = 1_700_000_000) { seconds = Lock(start) }

    /// Moves the time on.
    public func advance(_ by: Double) { seconds.withLock { $0 += by } }

    /// The `Clock` the code under test reads.
    public var clock: Clock { Clock { self.seconds.withLock { $0 } } }
}
