internal import CFastCGI
import Glibc

extension FastCGIServer {
    /// Ends the process at once with `status`, running no global destructors: after `run()`
    /// returns, serving threads may still be inside libfcgi, and destructors under them can
    /// crash. A build instrumented for coverage (`make coverage`) first writes its counts, which
    /// the skipped exit handlers would have written.
    public static func exitAtOnce(_ status: Int32) -> Never {
        CFastCGI_writeCoverageProfile()
        _exit(status)
    }
}
