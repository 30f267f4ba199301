internal import CHiredis
import Web

/// One blocking connection to Redis (`redisContext*`), freed in `deinit`. Not safe to share
/// between threads: its owner guards it with a lock, and makes a new one after an error (hiredis
/// leaves a context that failed unusable).
final class RedisConnection {
    private let context: UnsafeMutablePointer<redisContext>
    /// "Redis HOST:PORT": the server this connection reached.
    let name: String

    /// A connection to the primary of `address`: the server itself, or with Sentinel the one the
    /// first sentinel that answers names, checked to be a primary now (`ROLE`), so a store never
    /// writes to a replica that a failover left behind.
    static func primary(of address: RedisAddress, timeoutMilliseconds: Int) throws(SharedStoreError)
        -> RedisConnection
    {
        guard let service = address.service else {
            let node = RedisAddress.Node(host: address.host, port: address.port)
            return try RedisConnection(node, address, timeoutMilliseconds: timeoutMilliseconds)
        }
        var reasons: [String] = []
        for sentinel in address.sentinels {
            do throws(SharedStoreError) {
                let asked = try RedisConnection(sentinel, nil, timeoutMilliseconds: timeoutMilliseconds)
                let reply = try asked.command(
                    ["SENTINEL", "get-master-addr-by-name", service].map { Array($0.utf8) })
                guard let parts = reply.elements, parts.count == 2, let host = parts[0].bytes,
                    let port = parts[1].bytes.flatMap({ Int(String(decoding: $0, as: UTF8.self)) })
                else {
                    reasons.append("\(sentinel) knows no primary \(service)")
                    continue
                }
                let node = RedisAddress.Node(host: String(decoding: host, as: UTF8.self), port: port)
                let primary = try RedisConnection(node, address, timeoutMilliseconds: timeoutMilliseconds)
                guard case .array(let role) = try primary.command([Array("ROLE".utf8)]),
                    role.first?.bytes == Array("master".utf8)
                else {
                    reasons.append("\(node), named by \(sentinel), is not a primary (yet)")
                    continue
                }
                return primary
            } catch {
                reasons.append(error.description)
            }
        }
        throw SharedStoreError("\(address.name): no primary found (\(reasons.joined(separator: "; ")))")
    }

    /// Connects to `node` within `timeoutMilliseconds`, which then bounds each command too, and
    /// logs in and selects the database as `login` says (nil: a sentinel, asked as it is).
    /// - SeeAlso: `redisConnectWithTimeout`, `redisSetTimeout`.
    private init(_ node: RedisAddress.Node, _ login: RedisAddress?, timeoutMilliseconds: Int) throws(SharedStoreError) {
        name = "Redis \(node)"
        guard
            let context = redisConnectWithTimeout(
                node.host, Int32(node.port), CHiredis_milliseconds(timeoutMilliseconds))
        else { throw SharedStoreError("\(name): out of memory") }
        if let text = CHiredis_error(context) {
            let message = String(cString: text)
            redisFree(context)
            throw SharedStoreError("\(name): cannot connect (\(message))")
        }
        self.context = context
        setTimeout(milliseconds: timeoutMilliseconds)
        guard let address = login else { return }
        if let password = address.password {
            let login = address.user.map { ["AUTH", $0, password] } ?? ["AUTH", password]
            guard case .status = try command(login.map { Array($0.utf8) }) else {
                throw SharedStoreError("\(name): AUTH was refused")
            }
        }
        if address.database != 0 {
            guard case .status = try command([Array("SELECT".utf8), Array(String(address.database).utf8)]) else {
                throw SharedStoreError("\(name): SELECT \(address.database) was refused")
            }
        }
    }

    deinit { redisFree(context) }

    /// Sets how long a command may take before it fails. - SeeAlso: `redisSetTimeout`.
    func setTimeout(milliseconds: Int) {
        _ = redisSetTimeout(context, CHiredis_milliseconds(milliseconds))
    }

    /// Sends one command (binary-safe arguments) and returns its reply; an error reply is a
    /// `.error` value, a broken connection a thrown error. - SeeAlso: `redisCommandArgv`.
    func command(_ arguments: [[UInt8]]) throws(SharedStoreError) -> RedisReply {
        var pointers: [UnsafePointer<CChar>?] = []
        var lengths: [Int] = []
        let storage = arguments.map { bytes -> UnsafeMutablePointer<CChar> in
            let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: max(1, bytes.count))
            bytes.withUnsafeBytes { raw in
                if let base = raw.baseAddress {
                    UnsafeMutableRawPointer(buffer).copyMemory(from: base, byteCount: bytes.count)
                }
            }
            return buffer
        }
        defer { storage.forEach { $0.deallocate() } }
        for (buffer, bytes) in zip(storage, arguments) {
            pointers.append(UnsafePointer(buffer))
            lengths.append(bytes.count)
        }
        let raw = pointers.withUnsafeMutableBufferPointer { argv in
            lengths.withUnsafeBufferPointer { argvlen in
                redisCommandArgv(context, Int32(arguments.count), argv.baseAddress, argvlen.baseAddress)
            }
        }
        guard let raw else {
            let message = CHiredis_error(context).map { String(cString: $0) } ?? "no answer"
            throw SharedStoreError("\(name): \(message)")
        }
        let reply = raw.assumingMemoryBound(to: redisReply.self)
        defer { freeReplyObject(raw) }
        return RedisReply(reply)
    }
}

/// A Redis reply, copied out of hiredis' reply object.
package enum RedisReply: Equatable {
    case string([UInt8]), array([RedisReply]), integer(Int64), null, status(String), error(String)

    init(_ reply: UnsafeMutablePointer<redisReply>) {
        let value = reply.pointee
        switch value.type {
        case REDIS_REPLY_STRING:
            self = .string(Array(UnsafeRawBufferPointer(start: value.str, count: Int(value.len))))
        case REDIS_REPLY_ARRAY:
            self = .array((0..<Int(value.elements)).map { RedisReply(value.element[$0]!) })
        case REDIS_REPLY_INTEGER: self = .integer(Int64(value.integer))
        case REDIS_REPLY_STATUS: self = .status(String(cString: value.str))
        case REDIS_REPLY_ERROR: self = .error(String(cString: value.str))
        default: self = .null
        }
    }

    /// The bytes of a string reply.
    package var bytes: [UInt8]? { if case .string(let bytes) = self { bytes } else { nil } }
    /// The elements of an array reply.
    package var elements: [RedisReply]? { if case .array(let elements) = self { elements } else { nil } }
}
