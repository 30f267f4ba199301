internal import CFastCGI
import Glibc

/// What a serving program does with its own process: stop signals and the way out.
extension FastCGIServer {
    /// Blocks SIGTERM and SIGINT in the calling thread and every thread it starts afterwards;
    /// `run()` takes them with `sigwait`. A program calls it first thing, before it starts any
    /// thread, so no stop signal can land in a thread that does not block it.
    public static func blockStopSignals() { _ = CFastCGI_blockStopSignals() }

    /// Ends the process at once with `status`, running no global destructors: after `run()`
    /// returns, serving threads may still be answering, and global destructors under them can
    /// crash. A build instrumented for coverage (`make coverage`) first writes its counts, which
    /// the skipped exit handlers would have written.
    public static func exitAtOnce(_ status: Int32) -> Never {
        CFastCGI_writeCoverageProfile()
        _exit(status)
    }
}
