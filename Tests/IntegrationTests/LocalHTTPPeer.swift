import Foundation
import Glibc
import TestSupport

/// A real HTTP server on loopback serving a folder (Python's http.server): a peer for the
/// libcurl client, a stand-in Management API, a sibling app behind nginx.
final class LocalHTTPPeer {
    let port: Int
    private let server = ChildProcess()

    /// Serves `directory` on a free port; returns once it accepts connections.
    init(serving directory: String) throws {
        port = try Stack.freePort()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        server.arguments = ["-m", "http.server", String(port), "--bind", "127.0.0.1", "--directory", directory]
        server.standardOutput = FileHandle.nullDevice
        server.standardError = FileHandle.nullDevice
        try server.run()
        for _ in 0..<200 {
            if let fd = Stack.connect(tcpPort: port) {
                close(fd)
                return
            }
            usleep(25_000)
        }
        throw StackError("python3 -m http.server did not start")
    }

    /// Stops the server. KILL: it can be left deaf to TERM by the signal mask it inherits here,
    /// and its end is not awaited (Foundation's waitUntilExit can miss a KILLed child's end).
    func stop() { kill(server.processIdentifier, SIGKILL) }

    deinit { stop() }
}
