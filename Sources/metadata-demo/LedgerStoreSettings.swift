import RedisStore
import SQLiteStore
import Web

/// Where the session ledger lives: a SQLite file in `STATE_DIR` shared by the worker processes
/// of this machine (the default), or a Redis shared by workers on several machines.
struct LedgerStoreSettings {
    /// The store.
    let store: LedgerStore
    /// The folder of the embedded ledger.
    let stateDirectory: String
    /// Whether `STATE_DIR` was set (the systemd unit sets it to the service's own state folder).
    let stateDirectoryIsSet: Bool

    /// Where the session ledger's shared store is.
    enum LedgerStore {
        case sqlite(path: String)
        case redis(RedisAddress)

        /// The store, keeping events `retentionSeconds` (the sessions' absolute lifetime): a
        /// SQLite file is opened (and made) now; a Redis is connected on first use.
        func open(retentionSeconds: Int64) throws(SharedStoreError) -> any SharedStore {
            switch self {
            case .sqlite(let path): return try SQLiteSharedStore(path: path)
            case .redis(let address):
                return RedisSharedStore(address: address, timeoutSeconds: 1, retentionSeconds: Double(retentionSeconds))
            }
        }

        /// The setting a failure of this store is reported under.
        var settingName: String {
            if case .sqlite = self {
                TypedSetting<String>.stateDir.setting.name
            } else {
                TypedSetting<String>.sessionStore.setting.name
            }
        }
    }

    /// Reads the group; nil when it is wrong.
    static func read(_ reader: inout SettingsReader) -> LedgerStoreSettings? {
        let stateDirectoryIsSet = reader.isSet(.stateDir)
        let stateDirectory = reader.value(.stateDir)
        // A Redis URL may hold a password: the setting hides its userinfo wherever it is shown.
        let storeText = reader.value(.sessionStore)
        let store: LedgerStore
        switch storeText {
        case "sqlite": store = .sqlite(path: stateDirectory + "/session-ledger.sqlite3")
        case let url
        where url.hasPrefix("redis://") || url.hasPrefix("rediss://") || url.hasPrefix("redis-sentinel://"):
            do { store = .redis(try RedisAddress(url: url)) } catch {
                reader.problem(.sessionStore, error.description)
                return nil
            }
        default:
            reader.problem(
                .sessionStore,
                "is not sqlite, a redis://HOST:PORT/DB URL or a redis-sentinel://HOST:PORT,…/SERVICE/DB URL")
            return nil
        }
        return LedgerStoreSettings(
            store: store, stateDirectory: stateDirectory, stateDirectoryIsSet: stateDirectoryIsSet)
    }
}

extension TypedSetting {
    static var sessionStore: TypedSetting<String> {
        Setting("SESSION_STORE", "the session ledger: sqlite, redis://… or redis-sentinel://…", hidesUserinfo: true)
            .text(default: "sqlite")
    }
    static var stateDir: TypedSetting<String> {
        Setting("STATE_DIR", "the folder of the embedded ledger (session-ledger.sqlite3)").text(default: "state")
    }
}
