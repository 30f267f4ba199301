import Web

/// What the commands print for a person at a terminal (or systemd's journal): written straight to
/// the file descriptors, with no Foundation in the worker.
enum Output {
    /// `text` on standard error, as it is.
    static func error(_ text: String) { write(text, to: 2) }

    /// One line on standard error, after the program's name: how every problem is reported.
    static func problem(_ line: String) { error("metadata-demo: \(line)\n") }

    /// `text` on standard output.
    static func print(_ text: String) { write(text, to: 1) }

    private static func write(_ text: String, to fd: Int32) { WholeWrite.write(Array(text.utf8), to: fd) }
}
