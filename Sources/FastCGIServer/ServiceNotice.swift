internal import CFastCGI
import Foundation

/// Tells the service manager how the worker is doing, when it asked (`NOTIFY_SOCKET`: systemd
/// with `Type=notify`, or the run script's supervisor): `READY=1` once requests are served, so a
/// graceful reload stops the old worker only after the new one serves; `STOPPING=1` at shutdown.
/// One datagram each (sd_notify's protocol); nothing when no one asked.
enum ServiceNotice {
    static func send(_ message: String) {
        guard let path = ProcessInfo.processInfo.environment["NOTIFY_SOCKET"] else { return }
        _ = CFastCGI_notify(path, message)
    }
}
