import Web

/// Where the Redis of `SESSION_STORE` is: one server, `redis://[[USER]:PASSWORD@]HOST[:PORT][/DB]`,
/// or a primary that Redis Sentinel watches,
/// `redis-sentinel://[[USER]:PASSWORD@]HOST[:PORT][,HOST[:PORT]…]/SERVICE[/DB]` (the sentinels,
/// 26379 by default; the credentials and database are the primary's). The password is
/// percent-decoded; it is never printed.
public struct RedisAddress: Sendable, Equatable {
    /// The server's host name or IP address (with Sentinel: the first sentinel's).
    public let host: String
    /// Its TCP port (default 6379; with Sentinel: the first sentinel's).
    public let port: Int
    /// The database number (default 0).
    public let database: Int
    /// The ACL user, when one is named (Redis 6 and later).
    public let user: String?
    /// The password sent with `AUTH`, when one is given.
    public let password: String?
    /// The sentinels to ask, in order, with `redis-sentinel://`; empty for one server.
    public let sentinels: [Node]
    /// The name the sentinels monitor the primary by (`sentinel monitor NAME …`).
    public let service: String?

    /// A host and port.
    public struct Node: Sendable, Equatable, CustomStringConvertible {
        /// Host name or IP address.
        public let host: String
        /// TCP port.
        public let port: Int
        /// `host:port`.
        public var description: String { "\(host):\(port)" }
    }

    /// What logs and errors call it: `Redis HOST:PORT`, or `Redis SERVICE (Sentinel)`.
    public var name: String { service.map { "Redis \($0) (Sentinel)" } ?? "Redis \(host):\(port)" }

    /// The address in `url`; throws a line naming what is wrong (never the password).
    public init(url: String) throws(SharedStoreError) {
        if url.hasPrefix("rediss://") {
            // Debian 12's hiredis (0.14) has no TLS; a TLS tunnel (stunnel, spiped) on loopback does.
            throw SharedStoreError(
                "rediss:// (TLS) is not available with Debian 12's hiredis 0.14: reach Redis through a TLS tunnel on loopback (deploy/README.md)"
            )
        }
        let sentinel = url.hasPrefix("redis-sentinel://")
        guard sentinel || url.hasPrefix("redis://") else {
            throw SharedStoreError("does not start with redis:// or redis-sentinel://")
        }
        var rest = Substring(url.dropFirst(sentinel ? "redis-sentinel://".count : "redis://".count))
        var user: String?
        var password: String?
        if let at = rest.lastIndex(of: "@") {
            let credentials = rest[..<at]
            rest = rest[rest.index(after: at)...]
            if let colon = credentials.firstIndex(of: ":") {
                let name = String(credentials[..<colon])
                user = name.isEmpty ? nil : PercentEncoding.decodeOrSelf(name)
                password = PercentEncoding.decodeOrSelf(String(credentials[credentials.index(after: colon)...]))
            } else {
                password = PercentEncoding.decodeOrSelf(String(credentials))
            }
        }
        var path: [Substring] = []
        if let slash = rest.firstIndex(of: "/") {
            path = rest[rest.index(after: slash)...].split(separator: "/", omittingEmptySubsequences: false)
            rest = rest[..<slash]
        }
        // With Sentinel the path is SERVICE[/DB]; otherwise [DB].
        var service: String?
        if sentinel {
            guard let name = path.first, !name.isEmpty else {
                throw SharedStoreError("redis-sentinel:// names no service: add /SERVICE after the sentinels")
            }
            service = String(name)
            path.removeFirst()
        }
        guard path.count <= 1 else { throw SharedStoreError("has more than a database after the address") }
        let text = path.first ?? ""
        guard text.isEmpty || (Int(text).map { (0...15).contains($0) } ?? false) else {
            throw SharedStoreError("the database \"\(text)\" is not a number from 0 to 15")
        }
        let nodes = try rest.split(separator: ",", omittingEmptySubsequences: false).map {
            (part) throws(SharedStoreError) -> Node in try Self.node(part, defaultPort: sentinel ? 26379 : 6379)
        }
        guard sentinel || nodes.count == 1 else { throw SharedStoreError("names several hosts: use redis-sentinel://") }
        host = nodes[0].host
        port = nodes[0].port
        database = Int(text) ?? 0
        self.user = user
        self.password = password == "" ? nil : password
        sentinels = sentinel ? nodes : []
        self.service = service
    }

    /// `HOST[:PORT]` or `[IPv6][:PORT]`.
    private static func node(_ text: Substring, defaultPort: Int) throws(SharedStoreError) -> Node {
        var port = defaultPort
        var host = text
        if host.hasPrefix("[") {  // [IPv6]:port
            guard let close = host.firstIndex(of: "]") else { throw SharedStoreError("\"\(text)\" is not HOST:PORT") }
            let after = host[host.index(after: close)...]
            host = host[host.index(after: host.startIndex)..<close]
            if after.hasPrefix(":") {
                guard let number = Int(after.dropFirst()), (1...65535).contains(number) else {
                    throw SharedStoreError("the port in \"\(text)\" is not a number from 1 to 65535")
                }
                port = number
            }
        } else if let colon = host.lastIndex(of: ":") {
            guard let number = Int(host[host.index(after: colon)...]), (1...65535).contains(number) else {
                throw SharedStoreError("the port in \"\(text)\" is not a number from 1 to 65535")
            }
            port = number
            host = host[..<colon]
        }
        guard !host.isEmpty else { throw SharedStoreError("names no host") }
        return Node(host: String(host), port: port)
    }
}
