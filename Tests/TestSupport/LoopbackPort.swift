import Glibc
import Locking

/// Ports on 127.0.0.1 for the real servers the tests start.
public enum LoopbackPort {
    /// The ports handed out so far: the kernel may give a released port again to the next
    /// bind, and two stacks starting side by side would then both take it (one's nginx fails to
    /// listen, and its tests reach the other's servers).
    private static let handedOut = Lock<Set<Int>>([])

    /// A port nothing listens on now (bound then released) and not handed out before in this
    /// process.
    public static func free() throws -> Int {
        for _ in 0..<1000 {
            let port = try releasedPort()
            if handedOut.withLock({ $0.insert(port).inserted }) { return port }
        }
        throw NoFreePort()
    }

    private static func releasedPort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound else { throw NoFreePort() }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// True when something accepts a TCP connection on `port`.
    public static func accepts(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = loopback(port: port)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    /// Waits, up to `seconds`, until something accepts on `port`; true once it does. (A
    /// `for … where` loop would go on connecting after the first success: hundreds of needless
    /// connections, which overflow a small server's backlog and stall each one for seconds.)
    @discardableResult
    public static func waitUntilAccepting(_ port: Int, seconds: Double = 10) -> Bool {
        for _ in 0..<Int(seconds * 40) {
            if accepts(port) { return true }
            usleep(25_000)
        }
        return false
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return address
    }
}

/// The machine has no free port on loopback.
public struct NoFreePort: Error {}
