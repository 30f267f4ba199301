import Web

/// A thread's own buffers: what a connection has received (`RequestFraming.capacity` bytes; only
/// the pages a request fills are ever touched), and the answer it writes.
final class Scratch: @unchecked Sendable {
    /// What arrives on the connection being driven.
    let buffer: UnsafeMutableRawBufferPointer
    /// The answer being written. Its thread's alone: no run-time exclusivity check on each access.
    @exclusivity(unchecked) var output = GrowingBytes(capacity: 16 * 1024)
    /// Whether a page thread has other connections' events to handle in this wake-up after the
    /// one it is driving (their answers then carry the log lines it holds).
    var othersReady = false

    init(bytes: Int) { buffer = .allocate(byteCount: bytes, alignment: 16) }

    deinit { buffer.deallocate() }
}
