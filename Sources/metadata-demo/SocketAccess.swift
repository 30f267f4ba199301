import FastCGIServer
import Web

/// Who may connect to the worker: the unix socket's mode and group, the users the kernel names
/// as peers, and the web servers allowed over TCP.
struct SocketAccess {
    /// Permission bits of a unix socket.
    let mode: Int
    /// The group given the unix socket; nil: the process's own.
    let group: UInt32?
    /// The users who may connect besides root and the worker's own; nil: whoever the mode admits.
    let users: Set<UInt32>?
    /// The web servers (IPv4) allowed to connect over TCP.
    let peers: PeerPolicy

    /// Reads the group; nil when any of it is wrong.
    static func read(_ reader: inout SettingsReader) -> SocketAccess? {
        let start = reader.problems.count
        let modeText = reader.value(.fastcgiSocketMode)
        let mode = Int(modeText, radix: 8).flatMap { (0...0o777).contains($0) ? $0 : nil }
        if mode == nil { reader.problem(.fastcgiSocketMode, "\"\(modeText)\" is not octal permission bits like 660") }
        var group: UInt32?
        if let text = reader.text(.fastcgiSocketGroup, defaultShown: "the process's") {
            group = FastCGIServer.groupID(text)
            if group == nil { reader.problem(.fastcgiSocketGroup, "\"\(text)\" is not a group on this machine") }
        }
        var users: Set<UInt32>?
        if let text = reader.text(.fastcgiPeerUsers, defaultShown: "whoever the socket's mode admits") {
            users = []
            for name in text.split(separator: ",").map({ String($0).trimmingWhitespace(keepingLineBreaks: true) }) {
                if let uid = FastCGIServer.userID(name) {
                    users?.insert(uid)
                } else {
                    reader.problem(.fastcgiPeerUsers, "\"\(name)\" is not a user on this machine")
                }
            }
        }
        let peersText = reader.text(.fcgiWebServerAddrs, defaultShown: "loopback only")
        let peers = PeerPolicy(setting: peersText)
        if peers == nil {
            reader.problem(
                .fcgiWebServerAddrs, "\"\(peersText ?? "")\" is not any or a comma-separated list of IPv4 addresses")
        }
        guard reader.problems.count == start, let mode, let peers else { return nil }
        return SocketAccess(mode: mode, group: group, users: users, peers: peers)
    }
}

extension TypedSetting {
    static var fastcgiSocketMode: TypedSetting<String> {
        Setting("FASTCGI_SOCKET_MODE", "octal permission bits of the unix socket").text(default: "660")
    }
}

extension Setting {
    static let fastcgiSocketGroup = Setting("FASTCGI_SOCKET_GROUP", "the group given the unix socket")
    static let fastcgiPeerUsers = Setting(
        "FASTCGI_PEER_USERS", "users who may connect on the unix socket besides root and the worker's own")
    static let fcgiWebServerAddrs = Setting(
        "FCGI_WEB_SERVER_ADDRS", "with a TCP FASTCGI_LISTEN: the web servers allowed to connect, or any")
}
