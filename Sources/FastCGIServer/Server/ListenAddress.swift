/// Where the FastCGI worker listens.
public enum ListenAddress: Sendable, Equatable, CustomStringConvertible {
    /// A unix socket path, created (and replaced when stale) at start.
    case unixSocket(path: String)
    /// A TCP address, `host:port`.
    case tcp(host: String, port: Int)
    /// A listening socket handed over: fd 0 (spawn-fcgi) or fd 3+ (systemd `LISTEN_FDS`).
    case inherited(fd: Int32)

    /// Parses `unix:/path`, `/path`, `host:port`, `fd:N` or `systemd`.
    public static func parse(_ text: String, environment: [String: String]) -> ListenAddress? {
        if text == "systemd" {
            guard let count = environment["LISTEN_FDS"].flatMap(Int.init), count >= 1 else { return nil }
            return .inherited(fd: 3)
        }
        if text.hasPrefix("fd:") { return Int32(text.dropFirst(3)).map { .inherited(fd: $0) } }
        if text.hasPrefix("unix:") { return .unixSocket(path: String(text.dropFirst(5))) }
        if text.hasPrefix("/") || text.hasPrefix("./") { return .unixSocket(path: text) }
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
            (1...65535).contains(port)
        else { return nil }
        let host = String(text[..<colon])
        return .tcp(host: host.isEmpty ? "127.0.0.1" : host, port: port)
    }

    /// The address as `FASTCGI_LISTEN` writes it.
    public var description: String {
        switch self {
        case .unixSocket(let path): "unix:\(path)"
        case .tcp(let host, let port): "\(host):\(port)"
        case .inherited(let fd): "fd:\(fd)"
        }
    }
}
