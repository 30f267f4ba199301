import Foundation
import Web

/// A `SharedStore` in this process's memory, for the socket-free suites: no file, no server. Every
/// handle given the same instance sees the same state, as two workers on one store would; the
/// contract suite runs it beside SQLite and Redis, so it keeps their promises (order, cursors,
/// pages, waiting, expiry, "add once", "remove only if held").
public final class MemorySharedStore: SharedStore, @unchecked Sendable {
    private struct Event {
        let id: Int
        let bytes: [UInt8]
        let keepUntil: Double
    }

    private let condition = NSCondition()
    private var events: [Event] = []
    private var nextID = 1
    private var keys: [String: (value: [UInt8], expires: Double)] = [:]
    private var maps: [String: [String: (value: [UInt8], expires: Double)]] = [:]
    private let clock: Clock

    /// An empty store, its expiry measured by `clock`.
    public init(clock: Clock = .system) { self.clock = clock }

    /// Adds the event and wakes every waiting reader.
    public func append(_ event: [UInt8], keepUntil: Double) throws(SharedStoreError) {
        condition.lock()
        defer { condition.unlock() }
        events.append(Event(id: nextID, bytes: event, keepUntil: keepUntil))
        nextID += 1
        condition.broadcast()
    }

    /// The live events after `cursor` (an event's number), a page at a time, waiting up to `wait`.
    public func events(after cursor: String?, wait: Double) throws(SharedStoreError) -> (
        events: [[UInt8]], cursor: String?
    ) {
        let after = cursor.flatMap(Int.init) ?? 0
        let deadline = Date(timeIntervalSinceNow: max(0, wait))
        condition.lock()
        defer { condition.unlock() }
        while true {
            let now = clock.now()
            events.removeAll { $0.keepUntil <= now }
            let page = events.lazy.filter { $0.id > after }.prefix(Self.pageSize)
            if !page.isEmpty { return (page.map(\.bytes), String(page.last!.id)) }
            // Nothing new: the cursor stays at the newest number given so far, as the others' do.
            guard condition.wait(until: deadline) else { return ([], String(max(after, nextID - 1))) }
        }
    }

    /// The event numbered `cursor`, if the log still holds it.
    public func event(at cursor: String) throws(SharedStoreError) -> [UInt8]? {
        condition.lock()
        defer { condition.unlock() }
        guard let id = Int(cursor) else { return nil }
        return events.first { $0.id == id }?.bytes
    }

    /// Sets `key` unless it holds a live value.
    public func add(_ key: String, _ value: [UInt8], ttl: Double) throws(SharedStoreError) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        let now = clock.now()
        if let held = keys[key], held.expires > now { return false }
        keys = keys.filter { $0.value.expires > now }  // expired keys go as new ones come
        keys[key] = (value, now + ttl)
        return true
    }

    /// Sets `key`, replacing what it held.
    public func set(_ key: String, _ value: [UInt8], ttl: Double) throws(SharedStoreError) {
        condition.lock()
        defer { condition.unlock() }
        keys[key] = (value, clock.now() + ttl)
    }

    /// The live value of `key`.
    public func get(_ key: String) throws(SharedStoreError) -> [UInt8]? {
        condition.lock()
        defer { condition.unlock() }
        guard let held = keys[key], held.expires > clock.now() else { return nil }
        return held.value
    }

    /// How many keys and map fields hold a value now (what a test counts to see nothing was written).
    public var keyCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return keys.count + maps.values.reduce(0) { $0 + $1.count }
    }

    /// Forgets everything, as a Redis restarted without persistence does (event numbers go on,
    /// as a restarted Redis's time-based stream ids do).
    public func wipe() {
        condition.lock()
        defer { condition.unlock() }
        events = []
        keys = [:]
        maps = [:]
    }

    /// Everything the store holds now, to go back to with `restore(_:)`.
    public struct Snapshot: Sendable {
        fileprivate let events: [(id: Int, bytes: [UInt8], keepUntil: Double)]
        fileprivate let nextID: Int
        fileprivate let keys: [String: (value: [UInt8], expires: Double)]
    }

    /// A copy of what it holds, as an RDB snapshot or a copied SQLite file is.
    public func snapshot() -> Snapshot {
        condition.lock()
        defer { condition.unlock() }
        return Snapshot(events: events.map { ($0.id, $0.bytes, $0.keepUntil) }, nextID: nextID, keys: keys)
    }

    /// Goes back to `snapshot`, as a Redis started from an older RDB file or a SQLite file
    /// restored from an older copy does: what came since is gone, and event numbers are given
    /// again from the snapshot's (SQLite's `AUTOINCREMENT` keeps its counter in the file).
    public func restore(_ snapshot: Snapshot) {
        condition.lock()
        defer { condition.unlock() }
        events = snapshot.events.map { Event(id: $0.id, bytes: $0.bytes, keepUntil: $0.keepUntil) }
        nextID = snapshot.nextID
        keys = snapshot.keys
        maps = [:]
    }

    /// Removes `key` only while it holds `value`.
    public func remove(_ key: String, ifValue value: [UInt8]) throws(SharedStoreError) {
        condition.lock()
        defer { condition.unlock() }
        if keys[key]?.value == value { keys[key] = nil }
    }

    /// Sets a field of a map; past `limit` live fields, the ones that expire first go.
    public func setField(_ key: String, _ field: String, _ value: [UInt8], expires: Double, limit: Int)
        throws(SharedStoreError)
    {
        condition.lock()
        defer { condition.unlock() }
        let now = clock.now()
        var map = (maps[key] ?? [:]).filter { $0.value.expires > now }
        map[field] = (value, expires)
        if map.count > limit {
            for (name, _) in map.sorted(by: { $0.value.expires > $1.value.expires }).dropFirst(limit) {
                map[name] = nil
            }
        }
        maps[key] = map
    }

    /// The live fields of a map.
    public func fields(_ key: String) throws(SharedStoreError) -> [String: [UInt8]] {
        condition.lock()
        defer { condition.unlock() }
        let now = clock.now()
        return (maps[key] ?? [:]).filter { $0.value.expires > now }.mapValues(\.value)
    }

    /// Removes a field of a map.
    public func removeField(_ key: String, _ field: String) throws(SharedStoreError) {
        condition.lock()
        defer { condition.unlock() }
        maps[key]?[field] = nil
    }
}
