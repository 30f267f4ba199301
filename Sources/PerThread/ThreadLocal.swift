#if canImport(Glibc)
    import Glibc
#endif

/// One object per thread, made on the thread's first use and released when the thread ends.
/// For state a worker thread keeps to itself (a kept libcurl handle, a metrics cache), read
/// without a lock. `Failure` is what making one may throw (`Never` for most: no `try` then).
public final class ThreadLocal<Value: AnyObject, Failure: Error>: @unchecked Sendable {
    // @unchecked: the key is set once; each thread only reaches its own value.
    private let key: pthread_key_t
    private let make: @Sendable () throws(Failure) -> Value

    /// Values that `make` creates once per thread, on first use.
    public init(_ make: @escaping @Sendable () throws(Failure) -> Value) {
        var key = pthread_key_t()
        let created = pthread_key_create(&key) { value in
            if let value { Unmanaged<AnyObject>.fromOpaque(value).release() }
        }
        // The process has 1024 keys; running out is a leak of ThreadLocals, a programming error.
        precondition(created == 0, "pthread_key_create failed: \(created)")
        self.key = key
        self.make = make
    }

    /// Frees the key for reuse. Objects still held by live threads are not released (POSIX
    /// runs no destructors here); ThreadLocals normally live as long as the process.
    deinit { pthread_key_delete(key) }

    /// The calling thread's object if it has made one; nil, and nothing made, if not (for state
    /// only some threads keep).
    public func existingValue() -> Value? {
        guard let existing = pthread_getspecific(key) else { return nil }
        return Unmanaged<Value>.fromOpaque(existing).takeUnretainedValue()
    }

    /// The calling thread's object, made now if this is its first use.
    public func value() throws(Failure) -> Value {
        if let existing = pthread_getspecific(key) {
            return Unmanaged<Value>.fromOpaque(existing).takeUnretainedValue()
        }
        let made = try make()
        pthread_setspecific(key, Unmanaged.passRetained(made).toOpaque())
        return made
    }
}
