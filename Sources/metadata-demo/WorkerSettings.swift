import Auth0Web
import FastCGIServer
import RedisStore
import SQLiteStore
import Web

/// How the worker process runs: where it listens, with how many threads, where its templates are.
struct WorkerSettings {
    /// `FASTCGI_LISTEN`: `unix:/path`, `host:port`, `fd:0`, or `systemd`. Default `127.0.0.1:9000`.
    let listen: ListenAddress
    /// `WORKER_THREADS`: requests that call the tenant or the ledger's store served at once
    /// (1–1024). Default 32: such a request holds its thread while it waits.
    let threads: Int
    /// `WORKER_PAGE_THREADS`: threads answering the requests that need no wait (pages,
    /// `/healthz`) and watching every connection (1–64). Default: one per core, at least 2.
    let pageThreads: Int?
    /// `REQUEST_TIMEOUT_SECONDS`: how long a request may take to arrive whole from its first
    /// byte before its connection is closed (1–300). Default 10.
    let requestSeconds: Int
    /// `FASTCGI_SOCKET_MODE`: octal permission bits of a unix socket. Default `660`.
    let socketMode: Int
    /// `TEMPLATES_DIR`: the folder of HTML templates. Default: the package's, else `Templates`.
    let templatesDirectory: String
    /// `PUBLIC_DIR`: the folder nginx serves under `/static/`, read to fingerprint its files. Default: the
    /// package's, else `Public`.
    let publicDirectory: String
    /// `LOG_LEVEL`: `debug`, `info`, `warning` or `error`. Default `info`.
    let logLevel: Log.Level
    /// `FCGI_WEB_SERVER_ADDRS`: the web servers (IPv4) allowed to connect over TCP, comma-separated,
    /// as in libfcgi, or `any`. Default: loopback only (127.0.0.0/8), so a worker listening on
    /// another address refuses peers it was not told about.
    let peers: PeerPolicy
    /// `FASTCGI_SOCKET_GROUP`: the group (name or number) given the unix socket, so the web
    /// server's group may connect with mode 660. Default: the process's own.
    let socketGroup: UInt32?
    /// `WORKER_CONNECTIONS`: the most connections held at once (default 4096).
    let connections: Int
    /// `FASTCGI_PEER_USERS`: the users (names or numbers, comma-separated) who may connect on a
    /// unix socket besides root and the worker's own, checked by the kernel's word (SO_PEERCRED);
    /// unset: whoever the socket's permissions let in.
    let peerUsers: Set<UInt32>?
    /// `SESSION_STORE`: where the session ledger lives. `sqlite` (the default): a SQLite file in
    /// `STATE_DIR`, shared by the worker processes of this machine; `redis://[[USER]:PASSWORD@]HOST[:PORT][/DB]`:
    /// a Redis shared by workers on several machines; `redis-sentinel://…/SERVICE[/DB]`: the primary
    /// that Redis Sentinel names, followed through failovers.
    let ledgerStore: LedgerStore
    /// `STATE_DIR`: the folder of the embedded ledger (`session-ledger.sqlite3`). Default `state`.
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
            if case .sqlite = self { return "STATE_DIR" }
            return "SESSION_STORE"
        }
    }

    init(environment: [String: String]) throws {
        var problems: [String] = []
        let listenText = environment["FASTCGI_LISTEN"] ?? "127.0.0.1:9000"
        let listen = ListenAddress.parse(listenText, environment: environment)
        if listen == nil {
            problems.append(
                "FASTCGI_LISTEN: \"\(listenText)\" is not unix:/path, host:port, fd:N or systemd (with LISTEN_FDS set)")
        }
        let threadsText = environment["WORKER_THREADS"] ?? "32"
        let threads = Int(threadsText).flatMap { (1...1024).contains($0) ? $0 : nil }
        if threads == nil { problems.append("WORKER_THREADS: \"\(threadsText)\" is not a whole number from 1 to 1024") }
        var pageThreads: Int?
        if let text = environment["WORKER_PAGE_THREADS"], !text.isEmpty {
            pageThreads = Int(text).flatMap { (1...64).contains($0) ? $0 : nil }
            if pageThreads == nil {
                problems.append("WORKER_PAGE_THREADS: \"\(text)\" is not a whole number from 1 to 64")
            }
        }
        let requestText = environment["REQUEST_TIMEOUT_SECONDS"] ?? "10"
        let requestSeconds = Int(requestText).flatMap { (1...300).contains($0) ? $0 : nil }
        if requestSeconds == nil {
            problems.append(
                "REQUEST_TIMEOUT_SECONDS: \"\(requestText)\" is not a whole number of seconds from 1 to 300")
        }
        let modeText = environment["FASTCGI_SOCKET_MODE"] ?? "660"
        let mode = Int(modeText, radix: 8).flatMap { (0...0o777).contains($0) ? $0 : nil }
        if mode == nil { problems.append("FASTCGI_SOCKET_MODE: \"\(modeText)\" is not octal permission bits like 660") }
        let levelText = environment["LOG_LEVEL"] ?? "info"
        let level = Log.Level(name: levelText)
        if level == nil { problems.append("LOG_LEVEL: \"\(levelText)\" is not debug, info, warning or error") }
        let peers = PeerPolicy(setting: environment["FCGI_WEB_SERVER_ADDRS"])
        if peers == nil {
            problems.append(
                "FCGI_WEB_SERVER_ADDRS: \"\(environment["FCGI_WEB_SERVER_ADDRS"] ?? "")\" is not any or a "
                    + "comma-separated list of IPv4 addresses")
        }
        var socketGroup: UInt32?
        if let groupText = environment["FASTCGI_SOCKET_GROUP"], !groupText.isEmpty {
            socketGroup = FastCGIServer.groupID(groupText)
            if socketGroup == nil {
                problems.append("FASTCGI_SOCKET_GROUP: \"\(groupText)\" is not a group on this machine")
            }
        }
        let connectionsText = environment["WORKER_CONNECTIONS"] ?? "4096"
        let connections = Int(connectionsText).flatMap { (16...65536).contains($0) ? $0 : nil }
        if connections == nil {
            problems.append("WORKER_CONNECTIONS: \"\(connectionsText)\" is not a whole number from 16 to 65536")
        }
        var peerUsers: Set<UInt32>?
        if let usersText = environment["FASTCGI_PEER_USERS"], !usersText.isEmpty {
            var users: Set<UInt32> = []
            for name in usersText.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) {
                if let uid = FastCGIServer.userID(name) {
                    users.insert(uid)
                } else {
                    problems.append("FASTCGI_PEER_USERS: \"\(name)\" is not a user on this machine")
                }
            }
            peerUsers = users
        }
        let stateDirectory = environment["STATE_DIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "state"
        var ledgerStore: LedgerStore?
        switch environment["SESSION_STORE"] ?? "" {
        case "", "sqlite": ledgerStore = .sqlite(path: stateDirectory + "/session-ledger.sqlite3")
        case let url
        where url.hasPrefix("redis://") || url.hasPrefix("rediss://") || url.hasPrefix("redis-sentinel://"):
            do { ledgerStore = .redis(try RedisAddress(url: url)) } catch {
                problems.append("SESSION_STORE: \(error.description)")
            }
        default:
            problems.append(
                "SESSION_STORE: is not sqlite, a redis://HOST:PORT/DB URL or a redis-sentinel://HOST:PORT,…/SERVICE/DB URL"
            )
        }
        guard problems.isEmpty, let listen, let threads, let requestSeconds, let mode, let level, let peers,
            let ledgerStore, let connections
        else {
            throw SettingsProblems(lines: problems)
        }
        self.listen = listen
        self.threads = threads
        self.pageThreads = pageThreads
        self.requestSeconds = requestSeconds
        self.socketMode = mode
        self.templatesDirectory = environment["TEMPLATES_DIR"] ?? InstalledLayout.directory("Templates")
        self.publicDirectory = environment["PUBLIC_DIR"] ?? InstalledLayout.directory("Public")
        self.logLevel = level
        self.peers = peers
        self.socketGroup = socketGroup
        self.connections = connections
        self.peerUsers = peerUsers
        self.ledgerStore = ledgerStore
        self.stateDirectory = stateDirectory
        self.stateDirectoryIsSet = environment["STATE_DIR"].map { !$0.isEmpty } ?? false
    }
}
