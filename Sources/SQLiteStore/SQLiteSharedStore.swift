import FoundationEssentials
import Glibc
import Locking
import Web

/// The shared store of the worker processes of one machine: a SQLite file (no server to run),
/// in WAL mode so readers never wait for a writer. Commands use one connection; following the
/// event log uses another, which polls SQLite's change counter (`PRAGMA data_version`, which
/// moves when another connection commits) and reads the table only when it moved.
public final class SQLiteSharedStore: SharedStore {
    /// The database file.
    public let path: String
    private let commands: Lock<SQLiteConnection>
    private let follower: Lock<Follower>
    private let clock: Clock
    /// How often the follower looks at the change counter while it waits.
    private static let pollSeconds = 0.02

    private struct Follower: ~Copyable {
        let connection: SQLiteConnection
        var dataVersion: Int64 = -1
    }

    /// Opens (or creates) the store at `path`, making its folder (mode 0700) when missing.
    public init(path: String, clock: Clock = .system) throws(SharedStoreError) {
        let folder = FilePath.folder(of: path)
        if !folder.isEmpty, !FileManager.default.fileExists(atPath: folder) {
            do {
                try FileManager.default.createDirectory(
                    atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw SharedStoreError(
                    "SQLite \(path): cannot make the folder \(folder) (\(error))")
            }
        }
        let main = try SQLiteConnection(path: path, busySeconds: 5)
        try main.execute(
            """
            PRAGMA journal_mode=WAL;
            PRAGMA synchronous=NORMAL;
            CREATE TABLE IF NOT EXISTS ledger_events(
                seq INTEGER PRIMARY KEY AUTOINCREMENT, body BLOB NOT NULL, keep_until REAL NOT NULL);
            CREATE INDEX IF NOT EXISTS ledger_events_keep ON ledger_events(keep_until);
            CREATE TABLE IF NOT EXISTS ledger_keys(
                key TEXT PRIMARY KEY, value BLOB NOT NULL, expires REAL NOT NULL) WITHOUT ROWID;
            CREATE INDEX IF NOT EXISTS ledger_keys_expires ON ledger_keys(expires);
            CREATE TABLE IF NOT EXISTS ledger_maps(
                key TEXT NOT NULL, field TEXT NOT NULL, value BLOB NOT NULL, expires REAL NOT NULL,
                PRIMARY KEY(key, field)) WITHOUT ROWID;
            CREATE INDEX IF NOT EXISTS ledger_maps_expires ON ledger_maps(expires);
            """)
        let reader = try SQLiteConnection(path: path, busySeconds: 5)
        commands = Lock(main)
        follower = Lock(Follower(connection: reader))
        self.clock = clock
        self.path = path
    }

    /// Adds `event` to the log (see `SharedStore`).
    public func append(_ event: [UInt8], keepUntil: Double) throws(SharedStoreError) {
        let now = clock.now()
        try commands.withLock { db throws(SharedStoreError) in
            try db.transaction { () throws(SharedStoreError) in
                _ = try db.query("DELETE FROM ledger_events WHERE keep_until < ?", [.real(now)])
                _ = try db.query(
                    "INSERT INTO ledger_events(body, keep_until) VALUES(?, ?)", [.blob(event), .real(keepUntil)])
            }
        }
    }

    /// The events after `cursor`, waiting up to `wait` seconds for one (see `SharedStore`).
    public func events(after cursor: String?, wait: Double) throws(SharedStoreError) -> (
        events: [[UInt8]], cursor: String?
    ) {
        // Real time, not the injected clock: a test's stopped clock must not make this wait forever.
        let deadline = ContinuousClock.now + .milliseconds(Int(wait * 1000))
        let since = cursor.flatMap { Int64($0) } ?? 0
        while true {
            let found = try follower.withLock { state throws(SharedStoreError) -> ([[UInt8]], Int64)? in
                let version = try state.connection.query("PRAGMA data_version").first?.first?.integer ?? 0
                guard cursor == nil || version != state.dataVersion else { return nil }
                let rows = try state.connection.query(
                    "SELECT seq, body FROM ledger_events WHERE seq > ? AND keep_until >= ? ORDER BY seq LIMIT ?",
                    [.integer(since), .real(clock.now()), .integer(Int64(Self.pageSize))])
                // A full page may have more behind it: the next call reads on, change or not.
                state.dataVersion = rows.count == Self.pageSize ? -1 : version
                guard let last = rows.last?.first?.integer else { return cursor == nil ? ([], since) : nil }
                return (rows.compactMap { $0[1].blob }, last)
            }
            if let (events, last) = found { return (events, String(last)) }
            if ContinuousClock.now >= deadline { return ([], cursor) }
            usleep(useconds_t(SQLiteSharedStore.pollSeconds * 1_000_000))
        }
    }

    /// The event numbered `cursor`, if the table still holds it (see `SharedStore`). A file
    /// restored from an older copy numbers new events again from its own last one
    /// (`AUTOINCREMENT` keeps its counter in the file), so a number alone does not tell.
    public func event(at cursor: String) throws(SharedStoreError) -> [UInt8]? {
        guard let seq = Int64(cursor) else { return nil }
        return try commands.withLock { db throws(SharedStoreError) in
            try db.query("SELECT body FROM ledger_events WHERE seq = ?", [.integer(seq)]).first?.first?.blob
        }
    }

    /// Sets `key` only if it has no live value; true when it was set (see `SharedStore`).
    public func add(_ key: String, _ value: [UInt8], ttl: Double) throws(SharedStoreError) -> Bool {
        let now = clock.now()
        return try commands.withLock { db throws(SharedStoreError) -> Bool in
            try db.transaction { () throws(SharedStoreError) -> Bool in
                // Every expired key goes (an index range), not only this one: logout token ids
                // and locks that are never asked for again must not pile up.
                _ = try db.query("DELETE FROM ledger_keys WHERE expires <= ?", [.real(now)])
                _ = try db.query(
                    "INSERT OR IGNORE INTO ledger_keys(key, value, expires) VALUES(?, ?, ?)",
                    [.text(key), .blob(value), .real(now + ttl)])
                return db.changes == 1
            }
        }
    }

    /// Sets `key` for `ttl` seconds (see `SharedStore`).
    public func set(_ key: String, _ value: [UInt8], ttl: Double) throws(SharedStoreError) {
        let now = clock.now()
        try commands.withLock { db throws(SharedStoreError) in
            _ = try db.query(
                "INSERT OR REPLACE INTO ledger_keys(key, value, expires) VALUES(?, ?, ?)",
                [.text(key), .blob(value), .real(now + ttl)])
            // Expired keys go as new ones come, so the table holds only what is live.
            _ = try db.query("DELETE FROM ledger_keys WHERE expires <= ?", [.real(now)])
        }
    }

    /// The live value of `key` (see `SharedStore`).
    public func get(_ key: String) throws(SharedStoreError) -> [UInt8]? {
        let now = clock.now()
        return try commands.withLock { db throws(SharedStoreError) in
            try db.query("SELECT value FROM ledger_keys WHERE key = ? AND expires > ?", [.text(key), .real(now)])
                .first?.first?.blob
        }
    }

    /// Removes `key` if it holds `value` (see `SharedStore`).
    public func remove(_ key: String, ifValue value: [UInt8]) throws(SharedStoreError) {
        try commands.withLock { db throws(SharedStoreError) in
            _ = try db.query("DELETE FROM ledger_keys WHERE key = ? AND value = ?", [.text(key), .blob(value)])
        }
    }

    /// Sets a field of a map, dropping past `limit` the fields that expire first (see `SharedStore`).
    public func setField(_ key: String, _ field: String, _ value: [UInt8], expires: Double, limit: Int)
        throws(SharedStoreError)
    {
        let now = clock.now()
        try commands.withLock { db throws(SharedStoreError) in
            try db.transaction { () throws(SharedStoreError) in
                // Expired fields of every map go as new ones come (an index range).
                _ = try db.query("DELETE FROM ledger_maps WHERE expires <= ?", [.real(now)])
                _ = try db.query(
                    "INSERT OR REPLACE INTO ledger_maps(key, field, value, expires) VALUES(?, ?, ?, ?)",
                    [.text(key), .text(field), .blob(value), .real(expires)])
                _ = try db.query(
                    """
                    DELETE FROM ledger_maps WHERE key = ?1 AND field IN (
                        SELECT field FROM ledger_maps WHERE key = ?1 ORDER BY expires DESC LIMIT -1 OFFSET ?2)
                    """, [.text(key), .integer(Int64(limit))])
            }
        }
    }

    /// The live fields of a map (see `SharedStore`).
    public func fields(_ key: String) throws(SharedStoreError) -> [String: [UInt8]] {
        let now = clock.now()
        let rows = try commands.withLock { db throws(SharedStoreError) in
            try db.query(
                "SELECT field, value FROM ledger_maps WHERE key = ? AND expires > ?", [.text(key), .real(now)])
        }
        var fields: [String: [UInt8]] = [:]
        for row in rows { if let field = row[0].text, let value = row[1].blob { fields[field] = value } }
        return fields
    }

    /// Removes a field of a map (see `SharedStore`).
    public func removeField(_ key: String, _ field: String) throws(SharedStoreError) {
        try commands.withLock { db throws(SharedStoreError) in
            _ = try db.query("DELETE FROM ledger_maps WHERE key = ? AND field = ?", [.text(key), .text(field)])
        }
    }
}
