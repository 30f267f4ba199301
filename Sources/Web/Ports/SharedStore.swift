/// The port to state that every worker process (and machine) shares: a log of events that each
/// worker follows, and short-lived keys for "once only" facts and locks. Implemented over SQLite
/// (one machine, no server) and Redis (several machines); one contract suite tests both.
/// Calls block; each has a bounded time, and a failure is a `SharedStoreError`, never a crash.
public protocol SharedStore: Sendable {
    /// The most events one call of `events(after:wait:)` returns: a log of millions is read in
    /// pages, never whole into memory.
    static var pageSize: Int { get }

    /// Adds `event` to the log, kept at least until `keepUntil` (seconds since 1970).
    func append(_ event: [UInt8], keepUntil: Double) throws(SharedStoreError)

    /// The events added after `cursor` (nil: from the oldest still kept), oldest first, at most
    /// `pageSize` of them, and the cursor to pass next time (a reader goes on until a call gives
    /// none). When there are none, waits up to `wait` seconds for one.
    func events(after cursor: String?, wait: Double) throws(SharedStoreError) -> (events: [[UInt8]], cursor: String?)

    /// The event the log holds at `cursor` (a cursor `events(after:wait:)` gave with it), nil
    /// when the log no longer holds one there: how a reader tells a log that went back (a store
    /// restored from an older snapshot, a failover to a replica that lagged) from one that went on.
    func event(at cursor: String) throws(SharedStoreError) -> [UInt8]?

    /// Sets `key` to `value` for `ttl` seconds only if it has no live value; true when it was set.
    func add(_ key: String, _ value: [UInt8], ttl: Double) throws(SharedStoreError) -> Bool

    /// Sets `key` to `value` for `ttl` seconds, replacing what it held.
    func set(_ key: String, _ value: [UInt8], ttl: Double) throws(SharedStoreError)

    /// The live value of `key`, if any.
    func get(_ key: String) throws(SharedStoreError) -> [UInt8]?

    /// Removes `key` if it holds `value` (so a lock is released only by its holder).
    func remove(_ key: String, ifValue value: [UInt8]) throws(SharedStoreError)

    /// Sets `field` of the map `key` to `value` until `expires` (seconds since 1970). The map
    /// keeps at most `limit` live fields: past it, the ones that expire first are dropped.
    func setField(_ key: String, _ field: String, _ value: [UInt8], expires: Double, limit: Int)
        throws(SharedStoreError)

    /// The live fields of the map `key`.
    func fields(_ key: String) throws(SharedStoreError) -> [String: [UInt8]]

    /// Removes `field` from the map `key`.
    func removeField(_ key: String, _ field: String) throws(SharedStoreError)

    /// How many times this process found the store's primary on another server than before (a
    /// Sentinel failover); 0 for a store without one.
    var failoversSeen: Int { get }
}

extension SharedStore {
    /// 1,000 events (about 100 KB) a call.
    public static var pageSize: Int { 1000 }

    /// None: a store with a single server.
    public var failoversSeen: Int { 0 }
}

/// A shared store could not do what was asked: it is unreachable, or answered with an error.
/// The text names the store and the operation, never a value (values may be sealed tokens).
public struct SharedStoreError: Error, CustomStringConvertible {
    /// What went wrong, for the log.
    public let description: String

    /// An error saying `description`.
    public init(_ description: String) { self.description = description }
}
