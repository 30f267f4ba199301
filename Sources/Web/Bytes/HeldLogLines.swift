import PerThread

#if canImport(Glibc)
    import Glibc
#endif

/// The log lines a thread holds to write together: a page thread answers a dozen requests per
/// wake-up under load, and one write(2) per request line was a third of the worker's system
/// calls. Lines are held only by a thread that asked to (`Log.holdLinesOnThisThread`) and
/// written when it next waits (`Log.writeHeldLines`) or when another would not fit in one
/// atomic write; not request state: the lines of whatever requests the thread answered.
final class HeldLogLines {
    /// One write(2) of at most this many bytes to a pipe is never split or mixed with another's
    /// (POSIX's PIPE_BUF), so lines from several threads and workers never interleave.
    static let atomicWrite = 4096
    static let ofThisThread = ThreadLocal<HeldLogLines, Never> { HeldLogLines(descriptor: 2) }

    // Its thread's alone: no run-time exclusivity check on each access (two a request).
    @exclusivity(unchecked) private var bytes = GrowingBytes(capacity: atomicWrite)
    /// Where the lines go: standard error (another descriptor in tests).
    private let descriptor: Int32

    init(descriptor: Int32) { self.descriptor = descriptor }

    /// Holds `line` (newline included), writing out first what would not fit with it.
    func hold(_ line: UnsafeBufferPointer<UInt8>) {
        if bytes.count + line.count > HeldLogLines.atomicWrite { writeOut() }
        if line.count > HeldLogLines.atomicWrite { return HeldLogLines.write(line, to: descriptor) }
        bytes.append(line)
    }

    /// Writes what is held, if anything.
    func writeOut() {
        guard bytes.count > 0 else { return }
        bytes.withBytes { HeldLogLines.write($0, to: descriptor) }
        bytes.removeAll()
    }

    /// Writes `bytes` whole: again after a signal or a short write.
    static func write(_ bytes: UnsafeBufferPointer<UInt8>, to descriptor: Int32 = 2) {
        var left = UnsafeRawBufferPointer(bytes)
        while !left.isEmpty {
            let written = Glibc.write(descriptor, left.baseAddress, left.count)
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }  // nowhere to log to: nothing better to do
            left = UnsafeRawBufferPointer(rebasing: left[written...])
        }
    }
}
