#if canImport(Glibc)
    import Glibc
#endif

/// One object per thread, made on the thread's first use and released when the thread ends.
/// For state a worker thread keeps to itself (a kept libcurl handle, a metrics cache), read
/// without a lock.
public final class ThreadLocal<Value: AnyObject>: @unchecked Sendable {
    // @unchecked: the key is set once; each thread only reaches its own value.
    private let key: pthread_key_t
    private let make: @Sendable () throws -> Value

    public init(_ make: @escaping @Sendable () throws -> Value) {
        var key = pthread_key_t()
        pthread_key_create(&key) { value in
            if let value { Unmanaged<AnyObject>.fromOpaque(value).release() }
        }
        self.key = key
        self.make = make
    }

    /// The calling thread's object, made now if this is its first use.
    public func value() throws -> Value {
        if let existing = pthread_getspecific(key) {
            return Unmanaged<Value>.fromOpaque(existing).takeUnretainedValue()
        }
        let made = try make()
        pthread_setspecific(key, Unmanaged.passRetained(made).toOpaque())
        return made
    }
}
