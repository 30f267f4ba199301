internal import CHiredis

/// Replies read from raw protocol bytes by hiredis' own reader, as a connection reads them, and
/// written back: for the fuzz target over what the adapter takes from a server.
extension RedisReply {
    /// The complete replies in `bytes` (what a server could send), or nil when hiredis calls
    /// them a protocol error.
    package static func replies(in bytes: [UInt8]) -> [RedisReply]? {
        guard let reader = redisReaderCreate() else { return nil }
        defer { redisReaderFree(reader) }
        let fed = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { redisReaderFeed(reader, $0.baseAddress, $0.count) }
        }
        guard fed == REDIS_OK else { return nil }
        var replies: [RedisReply] = []
        while true {
            var raw: UnsafeMutableRawPointer?
            guard redisReaderGetReply(reader, &raw) == REDIS_OK else { return nil }
            guard let raw else { return replies }
            let reply = raw.assumingMemoryBound(to: redisReply.self)
            replies.append(RedisReply(reply))
            freeReplyObject(raw)
        }
    }

    /// The reply in the protocol (RESP2).
    package var encoded: [UInt8] {
        func line(_ prefix: String, _ text: some Collection<UInt8>) -> [UInt8] {
            Array(prefix.utf8) + text + [13, 10]
        }
        switch self {
        case .string(let bytes): return line("$", String(bytes.count).utf8) + bytes + [13, 10]
        case .array(let items): return line("*", String(items.count).utf8) + items.flatMap(\.encoded)
        case .integer(let number): return line(":", String(number).utf8)
        case .null: return line("$", "-1".utf8)
        case .status(let text): return line("+", text.utf8)
        case .error(let text): return line("-", text.utf8)
        }
    }
}
