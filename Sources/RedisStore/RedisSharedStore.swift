import Locking
import Synchronization
import Web

/// The shared store of workers on several machines: one Redis. The event log is a Redis stream
/// (`XADD`, trimmed by age with `MINID` past the retention), which a follower reads with a blocking `XREAD`, so a
/// new event reaches every worker as soon as it is written and a worker that was cut off reads
/// what it missed from where it stopped. Keys are `SET … NX PX` (once-only facts, locks) and
/// plain `SET … PX`. Commands and the follower each hold a connection of their own, made again
/// after any failure; every call is bounded by the timeout.
public final class RedisSharedStore: SharedStore {
    private let address: RedisAddress
    private let prefix: String
    private let streamKey: [UInt8]
    private let timeoutMilliseconds: Int
    private let retentionSeconds: Double
    /// Clock skew between the machines that add events, and the leeway on a logout token's `iat`.
    private static let skewSeconds: Double = 300
    private let commands = Lock<RedisConnection?>(nil)
    private let follower = Lock<RedisConnection?>(nil)
    /// The server the last connection reached, and how often that changed (failovers seen).
    private let lastPrimary = Lock<String?>(nil)
    private let primaryChanges = Atomic<Int>(0)

    /// How many times a new connection reached another server than the one before: a Sentinel
    /// failover, seen by this worker (a gauge of the store's own history, for the metrics).
    public var failoversSeen: Int { primaryChanges.load(ordering: .relaxed) }

    /// A store on the Redis at `address`, its keys under `prefix`, keeping every event at least
    /// `retentionSeconds` after it was added (the longest any event asks for: the sessions'
    /// absolute lifetime); connects on first use.
    public init(
        address: RedisAddress, prefix: String = "metadata-demo:ledger:", timeoutSeconds: Double = 1,
        retentionSeconds: Double = 7 * 86_400
    ) {
        self.address = address
        self.retentionSeconds = retentionSeconds
        self.prefix = prefix
        streamKey = Array((prefix + "events").utf8)
        timeoutMilliseconds = Int(timeoutSeconds * 1000)
    }

    /// Adds `event` to the log (see `SharedStore`). A stream is trimmed by the time entries were
    /// added, not by what each asked for, so the trim point is the store's retention (or this
    /// event's keeping time, if longer), never one event's: an event asking for an hour must not
    /// take a week-old logout with it.
    public func append(_ event: [UInt8], keepUntil: Double) throws(SharedStoreError) {
        let now = Clock.system.now()
        let keep = max(retentionSeconds, keepUntil.isFinite ? keepUntil - now : 0) + Self.skewSeconds
        let minimum = String(Int64(max(0, now - keep) * 1000))
        let reply = try run(on: commands) { connection throws(SharedStoreError) in
            try connection.command(
                [Array("XADD".utf8), streamKey, Array("MINID".utf8), Array("~".utf8), Array(minimum.utf8)]
                    + [Array("*".utf8), Array("e".utf8), event])
        }
        guard case .string = reply else { throw unexpected("XADD", reply) }
        // Behind Sentinel, a failover promotes a replica: the event waits (up to the timeout)
        // until one has it, so a failover right after a logout does not lose it. Not having it
        // in time is no failure: the workers that remember write it back when they notice.
        if !address.sentinels.isEmpty {
            let timeout = Array(String(timeoutMilliseconds).utf8)
            let waited = try run(on: commands, extraMilliseconds: timeoutMilliseconds) {
                connection throws(SharedStoreError) in
                try connection.command([Array("WAIT".utf8), Array("1".utf8), timeout])
            }
            guard case .integer = waited else { throw unexpected("WAIT", waited) }
        }
    }

    /// The events after `cursor`, waiting up to `wait` seconds for one (see `SharedStore`).
    public func events(after cursor: String?, wait: Double) throws(SharedStoreError) -> (
        events: [[UInt8]], cursor: String?
    ) {
        let count = Array(String(Self.pageSize).utf8)
        guard let cursor else {
            let reply = try run(on: follower) { connection throws(SharedStoreError) in
                try connection.command(
                    [Array("XRANGE".utf8), streamKey, Array("-".utf8), Array("+".utf8), Array("COUNT".utf8), count])
            }
            guard let entries = reply.elements else { throw unexpected("XRANGE", reply) }
            let (events, last) = RedisSharedStore.read(entries)
            return (events, last ?? "0-0")
        }
        let block = max(1, Int(wait * 1000))
        let reply = try run(on: follower, extraMilliseconds: block) { connection throws(SharedStoreError) in
            try connection.command(
                [Array("XREAD".utf8), Array("COUNT".utf8), count, Array("BLOCK".utf8)]
                    + [Array(String(block).utf8), Array("STREAMS".utf8), streamKey, Array(cursor.utf8)])
        }
        if case .null = reply { return ([], cursor) }
        guard let streams = reply.elements, let stream = streams.first?.elements, stream.count == 2,
            let entries = stream[1].elements
        else { throw unexpected("XREAD", reply) }
        let (events, last) = RedisSharedStore.read(entries)
        return (events, last ?? cursor)
    }

    /// The event at a stream id, if the stream still holds it (see `SharedStore`).
    public func event(at cursor: String) throws(SharedStoreError) -> [UInt8]? {
        let id = Array(cursor.utf8)
        let reply = try run(on: commands) { connection throws(SharedStoreError) in
            try connection.command([Array("XRANGE".utf8), streamKey, id, id])
        }
        guard let entries = reply.elements else { throw unexpected("XRANGE", reply) }
        return RedisSharedStore.read(entries).0.first
    }

    /// Sets `key` only if it has no live value; true when it was set (see `SharedStore`).
    public func add(_ key: String, _ value: [UInt8], ttl: Double) throws(SharedStoreError) -> Bool {
        let reply = try set(key, value, ttl: ttl, extra: [Array("NX".utf8)])
        switch reply {
        case .status: return true
        case .null: return false
        default: throw unexpected("SET NX", reply)
        }
    }

    /// Sets `key` for `ttl` seconds (see `SharedStore`).
    public func set(_ key: String, _ value: [UInt8], ttl: Double) throws(SharedStoreError) {
        let reply = try set(key, value, ttl: ttl, extra: [])
        guard case .status = reply else { throw unexpected("SET", reply) }
    }

    /// The live value of `key` (see `SharedStore`).
    public func get(_ key: String) throws(SharedStoreError) -> [UInt8]? {
        let reply = try run(on: commands) { connection throws(SharedStoreError) in
            try connection.command([Array("GET".utf8), Array((prefix + key).utf8)])
        }
        switch reply {
        case .string(let bytes): return bytes
        case .null: return nil
        default: throw unexpected("GET", reply)
        }
    }

    /// Removes `key` if it holds `value` (see `SharedStore`).
    public func remove(_ key: String, ifValue value: [UInt8]) throws(SharedStoreError) {
        // Compare and delete in one step on the server, so a lock taken over by another is left alone.
        let script = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0"
        let reply = try run(on: commands) { connection throws(SharedStoreError) in
            try connection.command(
                [Array("EVAL".utf8), Array(script.utf8), Array("1".utf8), Array((prefix + key).utf8), value])
        }
        guard case .integer = reply else { throw unexpected("EVAL", reply) }
    }

    /// Sets a field of a map (see `SharedStore`). A hash whose values carry their expiry
    /// (`MS|value`): Redis 7.0 expires keys, not fields, so one script on the server sets the
    /// field, drops expired ones and those past `limit`, and keeps the hash until its last field.
    public func setField(_ key: String, _ field: String, _ value: [UInt8], expires: Double, limit: Int)
        throws(SharedStoreError)
    {
        let reply = try run(on: commands) { connection throws(SharedStoreError) in
            try connection.command(
                [Array("EVAL".utf8), Array(Self.setFieldScript.utf8), Array("1".utf8), Array((prefix + key).utf8)]
                    + [Array(field.utf8), Array(String(Int64(expires * 1000)).utf8), value]
                    + [Array(String(limit).utf8), Array(String(Int64(Clock.system.now() * 1000)).utf8)])
        }
        guard case .integer = reply else { throw unexpected("EVAL", reply) }
    }

    private static let setFieldScript = """
        local k, now, limit = KEYS[1], tonumber(ARGV[5]), tonumber(ARGV[4])
        redis.call('HSET', k, ARGV[1], ARGV[2] .. '|' .. ARGV[3])
        local all, live, latest = redis.call('HGETALL', k), {}, 0
        for i = 1, #all, 2 do
          local e = tonumber(string.match(all[i + 1], '^(%d+)|'))
          if e == nil or e <= now then redis.call('HDEL', k, all[i])
          else
            table.insert(live, {all[i], e})
            if e > latest then latest = e end
          end
        end
        if #live > limit then
          table.sort(live, function(a, b) return a[2] > b[2] end)
          for i = limit + 1, #live do redis.call('HDEL', k, live[i][1]) end
        end
        if latest > 0 then redis.call('PEXPIREAT', k, latest) end
        return 1
        """

    /// The live fields of a map (see `SharedStore`).
    public func fields(_ key: String) throws(SharedStoreError) -> [String: [UInt8]] {
        let reply = try run(on: commands) { connection throws(SharedStoreError) in
            try connection.command([Array("HGETALL".utf8), Array((prefix + key).utf8)])
        }
        guard let items = reply.elements else { throw unexpected("HGETALL", reply) }
        let now = Int64(Clock.system.now() * 1000)
        var fields: [String: [UInt8]] = [:]
        for index in stride(from: 0, to: items.count - 1, by: 2) {
            guard let name = items[index].bytes, let stored = items[index + 1].bytes,
                let bar = stored.firstIndex(of: UInt8(ascii: "|")),
                let expires = Int64(String(decoding: stored[..<bar], as: UTF8.self)), expires > now
            else { continue }
            fields[String(decoding: name, as: UTF8.self)] = Array(stored[(bar + 1)...])
        }
        return fields
    }

    /// Removes a field of a map (see `SharedStore`).
    public func removeField(_ key: String, _ field: String) throws(SharedStoreError) {
        let reply = try run(on: commands) { connection throws(SharedStoreError) in
            try connection.command([Array("HDEL".utf8), Array((prefix + key).utf8), Array(field.utf8)])
        }
        guard case .integer = reply else { throw unexpected("HDEL", reply) }
    }

    private func set(_ key: String, _ value: [UInt8], ttl: Double, extra: [[UInt8]]) throws(SharedStoreError)
        -> RedisReply
    {
        let milliseconds = String(max(1, Int64(ttl * 1000)))
        return try run(on: commands) { connection throws(SharedStoreError) in
            try connection.command(
                [Array("SET".utf8), Array((prefix + key).utf8), value, Array("PX".utf8), Array(milliseconds.utf8)]
                    + extra)
        }
    }

    /// Runs `body` on the connection in `slot`, connecting first when there is none; a failed
    /// connection is dropped so the next call makes a new one.
    private func run(
        on slot: borrowing Lock<RedisConnection?>, extraMilliseconds: Int = 0,
        _ body: (RedisConnection) throws(SharedStoreError) -> RedisReply
    ) throws(SharedStoreError) -> RedisReply {
        try slot.withLock { connection throws(SharedStoreError) -> RedisReply in
            do throws(SharedStoreError) {
                let live: RedisConnection
                if let existing = connection {
                    live = existing
                } else {
                    live = try RedisConnection.primary(of: address, timeoutMilliseconds: timeoutMilliseconds)
                    connection = live
                    let before = lastPrimary.withLock { last in
                        defer { last = live.name }; return last
                    }
                    if let before, before != live.name { primaryChanges.add(1, ordering: .relaxed) }
                }
                if extraMilliseconds > 0 { live.setTimeout(milliseconds: timeoutMilliseconds + extraMilliseconds) }
                defer { if extraMilliseconds > 0 { live.setTimeout(milliseconds: timeoutMilliseconds) } }
                let reply = try body(live)
                // READONLY: a failover made this server a replica; the next call finds the primary.
                if case .error(let text) = reply,
                    text.hasPrefix("NOAUTH") || text.hasPrefix("LOADING") || text.hasPrefix("READONLY")
                {
                    connection = nil
                }
                return reply
            } catch {
                connection = nil
                throw error
            }
        }
    }

    /// The events and the last id of stream entries `[id, [field, value]]`.
    private static func read(_ entries: [RedisReply]) -> ([[UInt8]], String?) {
        var events: [[UInt8]] = []
        var last: String?
        for entry in entries {
            guard let parts = entry.elements, parts.count == 2, let id = parts[0].bytes,
                let fields = parts[1].elements, fields.count >= 2, let body = fields[1].bytes
            else { continue }
            events.append(body)
            last = String(decoding: id, as: UTF8.self)
        }
        return (events, last)
    }

    private func unexpected(_ command: String, _ reply: RedisReply) -> SharedStoreError {
        if case .error(let text) = reply {
            return SharedStoreError("\(address.name): \(command) failed (\(text))")
        }
        return SharedStoreError("\(address.name): \(command) answered unexpectedly")
    }
}
