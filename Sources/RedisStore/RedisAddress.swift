import Web

/// Where the Redis of `SESSION_STORE=redis://[[USER]:PASSWORD@]HOST[:PORT][/DB]` is. The password
/// is percent-decoded; it is never printed.
public struct RedisAddress: Sendable, Equatable {
    /// The server's host name or IP address.
    public let host: String
    /// Its TCP port (default 6379).
    public let port: Int
    /// The database number (default 0).
    public let database: Int
    /// The ACL user, when one is named (Redis 6 and later).
    public let user: String?
    /// The password sent with `AUTH`, when one is given.
    public let password: String?

    /// The address in `url`; throws a line naming what is wrong (never the password).
    public init(url: String) throws(SharedStoreError) {
        if url.hasPrefix("rediss://") {
            // Debian 12's hiredis (0.14) has no TLS; a TLS tunnel (stunnel, spiped) on loopback does.
            throw SharedStoreError(
                "rediss:// (TLS) is not available with Debian 12's hiredis 0.14: reach Redis through a TLS tunnel on loopback (deploy/README.md)"
            )
        }
        guard url.hasPrefix("redis://") else { throw SharedStoreError("does not start with redis://") }
        var rest = Substring(url.dropFirst("redis://".count))
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
        var database = 0
        if let slash = rest.firstIndex(of: "/") {
            let text = rest[rest.index(after: slash)...]
            guard text.isEmpty || (Int(text).map { (0...15).contains($0) } ?? false) else {
                throw SharedStoreError("the database \"\(text)\" is not a number from 0 to 15")
            }
            database = Int(text) ?? 0
            rest = rest[..<slash]
        }
        var port = 6379
        var host = rest
        if host.hasPrefix("[") {  // [IPv6]:port
            guard let close = host.firstIndex(of: "]") else { throw SharedStoreError("\"\(rest)\" is not HOST:PORT") }
            let after = host[host.index(after: close)...]
            host = host[host.index(after: host.startIndex)..<close]
            if after.hasPrefix(":") {
                guard let number = Int(after.dropFirst()), (1...65535).contains(number) else {
                    throw SharedStoreError("the port in \"\(rest)\" is not a number from 1 to 65535")
                }
                port = number
            }
        } else if let colon = host.lastIndex(of: ":") {
            guard let number = Int(host[host.index(after: colon)...]), (1...65535).contains(number) else {
                throw SharedStoreError("the port in \"\(rest)\" is not a number from 1 to 65535")
            }
            port = number
            host = host[..<colon]
        }
        guard !host.isEmpty else { throw SharedStoreError("names no host") }
        self.host = String(host)
        self.port = port
        self.database = database
        self.user = user
        self.password = password == "" ? nil : password
    }
}
