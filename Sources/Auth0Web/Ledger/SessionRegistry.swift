import FoundationEssentials
import Locking
import Web

/// The sessions a person has open on this site, for "Your sessions": per person, a map in the
/// shared store from each login's public id to its device and times, each entry kept while its
/// session could still be valid. Written at login and logout, and by a "last used" touch at most
/// once per 5 minutes per session, which a page view only queues: a thread of its own writes.
public final class SessionRegistry: Sendable {
    /// One open session, as "Your sessions" lists it.
    public struct Entry: Sendable, Equatable {
        /// `Session.publicID`.
        public let id: String
        /// The browser and system it was last used from.
        public let device: DeviceName
        /// When it began (seconds since 1970).
        public let startedAt: Int64
        /// When it was last used, to the nearest 5 minutes.
        public let lastUsedAt: Int64
        /// False for a session begun before this list existed, first seen at a later page view.
        public let seenAtLogin: Bool

        /// An entry with these values.
        public init(id: String, device: DeviceName, startedAt: Int64, lastUsedAt: Int64, seenAtLogin: Bool) {
            self.id = id
            self.device = device
            self.startedAt = startedAt
            self.lastUsedAt = lastUsedAt
            self.seenAtLogin = seenAtLogin
        }
    }

    /// The most sessions listed per person: past it, the ones whose life ends first are dropped
    /// from the list (they still work, and come back at their next touch).
    public static let limit = 50
    /// How often a session's "last used" is written at most.
    public static let touchSeconds: Int64 = 300
    /// The most writes waiting at once; past it, touches are dropped (the next view queues again).
    static let queueLimit = 10_000

    private let store: any SharedStore
    private let absoluteLifetime: Int64
    private let rollingLifetime: Int64
    private let clock: Clock
    private let events: any Auth0Events
    /// When each session (by the first eight bytes of its CSRF token) was last queued here.
    private let touched = Lock<[UInt64: Int64]>([:])
    private let queue = WriteQueue()

    /// A registry in `store` for sessions living at most `absoluteLifetime` seconds, and
    /// `rollingLifetime` seconds unused.
    public init(
        store: any SharedStore, absoluteLifetime: Int64, rollingLifetime: Int64, clock: Clock = .system,
        events: any Auth0Events
    ) {
        self.store = store
        self.absoluteLifetime = absoluteLifetime
        self.rollingLifetime = rollingLifetime
        self.clock = clock
        self.events = events
        Threads.start("session-registry") { [queue, store, events] in
            while true {
                let write = queue.next()
                do { try write(store) } catch {
                    events.ledgerFailed(operation: "sessions", error: "\(error)", firstOfOutage: false)
                }
            }
        }
    }

    /// Lists `session` as begun now, on `device` (at login).
    public func loggedIn(_ session: Session, device: DeviceName) {
        _ = isDue(csrfToken: session.csrfToken)  // the login's own write stands for the first touch
        queueWrite(session, device: device, seenAtLogin: true)
    }

    /// True when the session whose CSRF token is `token` was not noted by this worker in the
    /// last 5 minutes (and notes it now). A page view pays this: eight bytes of the token (random
    /// per login, sealed in the cookie, so nobody chooses it) as a key, a clock read and a look-up.
    public func isDue(csrfToken token: String) -> Bool {
        let key = Session.loginKey(csrfToken: token)
        let now = Int64(clock.now())
        return touched.withLock { memo -> Bool in
            if let last = memo[key], now - last < Self.touchSeconds { return false }
            if memo.count >= 100_000 { memo.removeAll(keepingCapacity: true) }  // bounded: forgets, then writes again
            memo[key] = now
            return true
        }
    }

    /// Queues the write of "`session` was used now, on the device of `userAgent`" (see `isDue`).
    public func used(_ session: Session, userAgent: String?) {
        queueWrite(session, device: DeviceName(userAgent: userAgent), seenAtLogin: nil)
    }

    /// Queues `session`'s entry, last used now, kept while the session could live.
    /// `seenAtLogin` nil keeps what the stored entry says (a session first seen at a page view
    /// is an earlier one).
    private func queueWrite(_ session: Session, device: DeviceName, seenAtLogin: Bool?) {
        let now = Int64(clock.now())
        let (key, id, startedAt) = (Self.key(session.profile.sub), session.publicID, session.createdAt)
        let expires = Double(min(startedAt + absoluteLifetime, now + rollingLifetime))
        queue.add { store in
            let seen = try seenAtLogin ?? store.fields(key)[id].flatMap(Entry.init(encoded:))?.seenAtLogin ?? false
            let entry = Entry(id: id, device: device, startedAt: startedAt, lastUsedAt: now, seenAtLogin: seen)
            try store.setField(key, id, entry.encoded, expires: expires, limit: Self.limit)
        }
    }

    /// Takes `session` off the list (at its logout), now.
    public func loggedOut(_ session: Session) {
        try? store.removeField(Self.key(session.profile.sub), session.publicID)
    }

    /// Takes the session `id` of `sub` off the list (ended from another session).
    public func remove(_ id: String, of sub: String) throws(SharedStoreError) {
        try store.removeField(Self.key(sub), id)
    }

    /// The sessions `sub` has open, newest first.
    public func sessions(of sub: String) throws(SharedStoreError) -> [Entry] {
        try store.fields(Self.key(sub)).values.compactMap(Entry.init(encoded:))
            .sorted { ($0.startedAt, $0.lastUsedAt, $0.id) > ($1.startedAt, $1.lastUsedAt, $1.id) }
    }

    static func key(_ sub: String) -> String { "sessions:" + sub }
}

extension SessionRegistry.Entry {
    private static let formatVersion: UInt8 = 1

    package var encoded: [UInt8] {
        var w = ByteWriter(capacity: 96)
        w.write(Self.formatVersion)
        w.write(id)
        w.write(optional: device.browser)
        w.write(optional: device.system)
        w.write(startedAt)
        w.write(lastUsedAt)
        w.write(seenAtLogin)
        return w.bytes
    }

    package init?(encoded bytes: [UInt8]) {
        var r = ByteReader(bytes[...])
        do {
            guard try r.readByte() == Self.formatVersion else { return nil }
            self.init(
                id: try r.readString(),
                device: DeviceName(browser: try r.readOptionalString(), system: try r.readOptionalString()),
                startedAt: try r.readInt64(), lastUsedAt: try r.readInt64(), seenAtLogin: try r.readBool())
            guard r.isAtEnd else { return nil }
        } catch {
            return nil
        }
    }
}

/// The registry's writes, waiting for its thread (bounded: past the limit, new ones are dropped).
private final class WriteQueue: Sendable {
    typealias Write = @Sendable (any SharedStore) throws -> Void
    private let writes = ConditionLock<[Write]>([])

    func add(_ write: @escaping Write) {
        writes.change { writes in
            if writes.count < SessionRegistry.queueLimit { writes.append(write) }
        }
    }

    func next() -> Write { writes.wait { $0.isEmpty ? nil : $0.removeFirst() } }
}
