extension Array where Element == UInt8 {
    /// Bytes written in place into room for `capacity` (`write` returns how many it wrote), as
    /// `init(unsafeUninitializedCapacity:initializingWith:)` writes them, but allocated by code
    /// specialised here: that initializer allocates in the standard library's generic code, which
    /// looks up the array's storage type at run time (the runtime's metadata cache, about 350
    /// instructions a call; a page made two). `append(addingCapacity:)` reserves the room in code
    /// emitted into this module and lends it uninitialized.
    @inlinable
    package init(room capacity: Int, _ write: (UnsafeMutableBufferPointer<UInt8>) -> Int) {
        self = []
        guard capacity > 0 else { return }
        append(addingCapacity: capacity) { span in
            span.withUnsafeMutableBufferPointer { room, count in count = write(room) }
        }
    }
}
