internal import CFastCGI
import FoundationEssentials

/// Tells the service manager how the worker is doing, when it asked (`NOTIFY_SOCKET`: systemd
/// with `Type=notify`, or the run script's supervisor): `READY=1` once requests are served, so a
/// graceful reload stops the old worker only after the new one serves; `STOPPING=1` at shutdown;
/// `WATCHDOG=1` while the event loop turns (`WatchdogSec=`). One datagram each (sd_notify's
/// protocol), sent without waiting: a manager whose queue is full loses a notice rather than
/// hold the thread that sent it; nothing when no one asked.
enum ServiceNotice {
    static func send(_ message: String) {
        guard let path else { return }
        _ = CFastCGI_notify(path, message)
    }

    /// Waits until the service manager has read every notice sent before (sd_notify's
    /// `BARRIER=1`: it closes the file descriptor sent with it once it has), at most a second.
    static func barrier() {
        guard let path else { return }
        _ = CFastCGI_notifyBarrier(path, 1000)
    }

    /// Read once: the environment does not change while the worker runs.
    private static let path = ProcessInfo.processInfo.environment["NOTIFY_SOCKET"]

    /// The watchdog interval systemd asks for (`WATCHDOG_USEC`, for this process when
    /// `WATCHDOG_PID` names one), in milliseconds; nil without one.
    static func watchdogMilliseconds() -> Int64? {
        let environment = ProcessInfo.processInfo.environment
        guard let text = environment["WATCHDOG_USEC"], let micros = Int64(text), micros > 0 else { return nil }
        if let pid = environment["WATCHDOG_PID"].flatMap(Int32.init), pid != getpid() { return nil }
        return max(1, micros / 1000)
    }
}
