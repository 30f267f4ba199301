import FoundationEssentials
import Synchronization

/// The status line the service manager shows (`systemctl status`: `Status: "…"`): what the
/// worker is doing, and a note that stays after each change of it (an upgrade installed that
/// this process does not run yet).
enum ServiceStatus {
    private static let line = Mutex<(text: String, note: String)>(("", ""))

    /// Says `text`, with the note if there is one; `ready`: in the same notice as `READY=1`
    /// (sd_notify's way: the manager sees both at once).
    static func report(_ text: String, ready: Bool = false) { say(ready: ready) { $0.text = text } }

    /// Adds `note` after whatever the status says, now and from now on.
    static func note(_ note: String) { say { $0.note = note } }

    /// Changes the line and says it whole.
    private static func say(ready: Bool = false, _ change: (inout (text: String, note: String)) -> Void) {
        let shown = line.withLock { line in
            change(&line)
            return line.text + line.note
        }
        ServiceNotice.send(
            (ready ? "READY=1\n" : "") + "STATUS="
                + String(String.UnicodeScalarView(shown.unicodeScalars.map { $0 == "\n" ? " " : $0 })))
    }
}

/// Whether the program file this process runs was replaced on disk (an upgrade unpacked a new
/// one: the kernel then names the running one "(deleted)"), and by which path.
enum RunningProgram {
    /// The path of a replaced program, or nil while the file on disk is the one running.
    static func replacedPath() -> String? {
        guard let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"),
            path.hasSuffix(" (deleted)")
        else { return nil }
        return String(path.dropLast(" (deleted)".count))
    }
}
