import Auth0Web
import FastCGIServer
import Web

/// How the worker process runs: where it listens, with how many threads, where its templates
/// are, what it logs, where its session ledger lives.
struct WorkerSettings {
    /// Where the FastCGI server listens.
    let listen: ListenAddress
    /// Requests that call the tenant or the ledger's store served at once (each holds its thread while it waits).
    let threads: Int
    /// Threads answering the requests that need no wait and watching every connection; nil: half the cores, at least 1.
    let pageThreads: Int?
    /// How long a request may take to arrive whole from its first byte before its connection is closed.
    let requestSeconds: Int
    /// Permission bits of a unix socket.
    let socketMode: Int
    /// The folder of HTML templates.
    let templatesDirectory: String
    /// The folder nginx serves under `/static/`, read to fingerprint its files.
    let publicDirectory: String
    /// What is logged.
    let logLevel: Log.Level
    /// The web servers (IPv4) allowed to connect over TCP.
    let peers: PeerPolicy
    /// The group given the unix socket; nil: the process's own.
    let socketGroup: UInt32?
    /// The most connections held at once.
    let connections: Int
    /// The users who may connect on a unix socket besides root and the worker's own; nil: whoever
    /// the socket's permissions let in.
    let peerUsers: Set<UInt32>?
    /// Where the session ledger lives.
    let ledger: LedgerStoreSettings
    /// Set by `metadata-demo-trial on`: these are the trial's settings, not a production's.
    let trialMode: String?

    /// Reads the group; `environment` is systemd's too (`LISTEN_FDS` for `FASTCGI_LISTEN=systemd`).
    /// Nil when any of it is wrong.
    static func read(_ reader: inout SettingsReader, environment: [String: String]) -> WorkerSettings? {
        let start = reader.problems.count
        let listenText = reader.value(.fastcgiListen)
        let listen = ListenAddress.parse(listenText, environment: environment)
        if listen == nil {
            reader.problem(
                .fastcgiListen, "\"\(listenText)\" is not unix:/path, host:port, fd:N or systemd (with LISTEN_FDS set)")
        }
        let threads = reader.value(.workerThreads)
        let pageThreads = reader.value(.workerPageThreads)
        let requestSeconds = Int(reader.value(.requestTimeoutSeconds))
        let connections = reader.value(.workerConnections)
        let levelText = reader.value(.logLevel)
        let level = Log.Level(name: levelText)
        if level == nil { reader.problem(.logLevel, "\"\(levelText)\" is not debug, info, warning or error") }
        let socket = SocketAccess.read(&reader)
        let templates = reader.text(.templatesDir) ?? InstalledLayout.directory("Templates")
        reader.shows(.templatesDir, templates)
        let publicDirectory = publicDirectory(&reader)
        let ledger = LedgerStoreSettings.read(&reader)
        let trialMode = reader.text(.trialMode)
        guard reader.problems.count == start, let listen, let level, let socket, let ledger else { return nil }
        return WorkerSettings(
            listen: listen, threads: threads, pageThreads: pageThreads, requestSeconds: requestSeconds,
            socketMode: socket.mode, templatesDirectory: templates, publicDirectory: publicDirectory,
            logLevel: level, peers: socket.peers, socketGroup: socket.group, connections: connections,
            peerUsers: socket.users, ledger: ledger, trialMode: trialMode)
    }

    /// `PUBLIC_DIR`, or the package's folder (`publish-static` reads it alone).
    static func publicDirectory(_ reader: inout SettingsReader) -> String {
        let folder = reader.text(.publicDir) ?? InstalledLayout.directory("Public")
        reader.shows(.publicDir, folder)
        return folder
    }
}

extension TypedSetting {
    static var fastcgiListen: TypedSetting<String> {
        Setting("FASTCGI_LISTEN", "where the worker listens: unix:/path, host:port, fd:0 or systemd")
            .text(default: "127.0.0.1:9000")
    }
    static var workerThreads: TypedSetting<Int> {
        Setting("WORKER_THREADS", "requests that call the provider or the ledger's store served at once")
            .wholeNumber(in: 1...1024, default: 32)
    }
    static var workerPageThreads: TypedSetting<Int?> {
        Setting("WORKER_PAGE_THREADS", "threads answering what needs no wait, and watching every connection")
            .wholeNumber(in: 1...64, unsetMeans: "half the cores, at least 1")
    }
    static var requestTimeoutSeconds: TypedSetting<Int64> {
        Setting("REQUEST_TIMEOUT_SECONDS", "seconds a request may take to arrive whole before its connection is closed")
            .seconds(in: 1...300, default: 10)
    }
    static var workerConnections: TypedSetting<Int> {
        Setting("WORKER_CONNECTIONS", "connections held at once").wholeNumber(in: 16...65536, default: 4096)
    }
    static var logLevel: TypedSetting<String> {
        Setting("LOG_LEVEL", "debug, info, warning or error").text(default: "info")
    }
}

extension Setting {
    static let templatesDir = Setting("TEMPLATES_DIR", "the folder of the HTML templates and their words")
    static let publicDir = Setting(
        "PUBLIC_DIR", "the folder nginx serves under /static/, read to fingerprint its files")
    static let trialMode = Setting("TRIAL_MODE", "set by metadata-demo-trial on: these are the trial's settings")
}
