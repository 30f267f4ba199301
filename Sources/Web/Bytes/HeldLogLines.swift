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

    // Its thread's alone: no run-time exclusivity check on each access (two a request). Nil
    // while it is lent for a line to be built at its end (`lend`).
    @exclusivity(unchecked) private var bytes: GrowingBytes? = GrowingBytes(capacity: atomicWrite)
    /// Where the lines go: standard error (another descriptor in tests).
    private let descriptor: Int32

    init(descriptor: Int32) { self.descriptor = descriptor }

    /// Holds `line` (newline included), writing out first what would not fit with it. While the
    /// buffer is lent (a record logged while another is being built) the line is written at once.
    func hold(_ line: UnsafeBufferPointer<UInt8>) {
        guard var held = bytes.take() else { return HeldLogLines.write(line, to: descriptor) }
        if held.count + line.count > HeldLogLines.atomicWrite { writeOut(&held) }
        if line.count > HeldLogLines.atomicWrite {
            HeldLogLines.write(line, to: descriptor)
        } else {
            held.append(line)
        }
        bytes = consume held
    }

    /// Writes `line` now, after what is held (a warning or an error: the order stays).
    func writeAfterHeld(_ line: UnsafeBufferPointer<UInt8>) {
        writeOut()
        HeldLogLines.write(line, to: descriptor)
    }

    /// The buffer of held lines, lent so that a record is built at its end, where it is held
    /// with no buffer of its own and no copy (the request's line); nil while it is lent. Give
    /// it back with `takeBack(_:lineStart:)`.
    func lend() -> GrowingBytes? { bytes.take() }

    /// Takes back the buffer lent, one more line (newline included) written from `lineStart` to
    /// its end: when the whole would not fit in one atomic write, the lines before it go first.
    func takeBack(_ lent: consuming GrowingBytes, lineStart: Int) {
        var held = lent
        if held.count > HeldLogLines.atomicWrite {
            held.withBytes { HeldLogLines.write(UnsafeBufferPointer(rebasing: $0[..<lineStart]), to: descriptor) }
            held.removeFirst(lineStart)
            if held.count > HeldLogLines.atomicWrite { writeOut(&held) }
        }
        bytes = consume held
    }

    /// Writes what is held, if anything (nothing while the buffer is lent: its lines go when it
    /// is back).
    func writeOut() {
        guard var held = bytes.take() else { return }
        writeOut(&held)
        bytes = consume held
    }

    private func writeOut(_ held: inout GrowingBytes) {
        guard held.count > 0 else { return }
        held.withBytes { HeldLogLines.write($0, to: descriptor) }
        held.removeAll()
    }

    /// Writes `bytes` whole (nowhere to log to when refused: nothing better to do).
    static func write(_ bytes: UnsafeBufferPointer<UInt8>, to descriptor: Int32 = 2) {
        WholeWrite.write(UnsafeRawBufferPointer(bytes), to: descriptor)
    }
}
