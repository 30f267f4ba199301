import CRaceAnnotations
import Synchronization

/// Swift's `Mutex`, with the lock and unlock told to ThreadSanitizer, so that a build with
/// `-sanitize=thread` (`make sanitize`) reports real races and not every critical section: the
/// `Mutex` waits on a futex inside the standard library, which the sanitizer cannot see. Outside
/// such a build each annotation is a null check. Use it wherever threads share state.
public struct Lock<Value: ~Copyable>: ~Copyable {
    @usableFromInline let mutex: Mutex<Value>

    /// A lock guarding `initialValue`.
    public init(_ initialValue: consuming sending Value) {
        mutex = Mutex(initialValue)
    }

    /// Runs `body` with the value, holding the lock.
    @inlinable @inline(__always)
    public borrowing func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        try mutex.withLock { (value) throws(E) -> sending Result in
            // The lock's own address names it to the sanitizer; a Lock never moves (~Copyable, stored).
            withUnsafePointer(to: self) { race_acquire($0) }
            defer { withUnsafePointer(to: self) { race_release($0) } }
            return try body(&value)
        }
    }
}

extension Lock: @unchecked Sendable where Value: ~Copyable {}
