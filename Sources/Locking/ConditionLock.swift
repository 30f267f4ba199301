import Glibc

/// A value shared by threads that wait for it to become something: a lock and a condition over
/// one value, so the code that waits (`wait(for:)`) and the code that changes it (`change`)
/// read as plain Swift, where each wrote its own condition around fields it kept by hand.
/// The lock and the waits are pthread's (no Foundation in the worker), which ThreadSanitizer sees.
public final class ConditionLock<Value>: @unchecked Sendable {
    // Allocated, not stored: a pthread mutex or condition must not move once initialised.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    /// Guarded by `mutex`.
    private var value: Value

    /// A lock guarding `initialValue`.
    public init(_ initialValue: Value) {
        value = initialValue
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Runs `body` with the value, holding the lock.
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }

    /// Changes the value and wakes every waiter to look at it again.
    public func change<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer {
            pthread_cond_broadcast(condition)
            pthread_mutex_unlock(mutex)
        }
        return try body(&value)
    }

    /// Waits until `ready` makes something of the value (it may change it, holding the lock), and
    /// returns that.
    public func wait<Result>(for ready: (inout Value) -> Result?) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while true {
            if let result = ready(&value) { return result }
            pthread_cond_wait(condition, mutex)
        }
    }
}
