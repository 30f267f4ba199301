import Foundation

/// A value shared by threads that wait for it to become something: a lock and a condition over
/// one value, so the code that waits (`wait(for:)`) and the code that changes it (`change`)
/// read as plain Swift, where each wrote its own `NSCondition` around fields it kept by hand.
/// The waits are pthread's, which ThreadSanitizer sees.
public final class ConditionLock<Value>: @unchecked Sendable {
    private let condition = NSCondition()
    /// Guarded by `condition`.
    private var value: Value

    /// A lock guarding `initialValue`.
    public init(_ initialValue: Value) { value = initialValue }

    /// Runs `body` with the value, holding the lock.
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        condition.lock()
        defer { condition.unlock() }
        return try body(&value)
    }

    /// Changes the value and wakes every waiter to look at it again.
    public func change<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        condition.lock()
        defer {
            condition.broadcast()
            condition.unlock()
        }
        return try body(&value)
    }

    /// Waits until `ready` makes something of the value (it may change it, holding the lock), and
    /// returns that.
    public func wait<Result>(for ready: (inout Value) -> Result?) -> Result {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let result = ready(&value) { return result }
            condition.wait()
        }
    }
}
