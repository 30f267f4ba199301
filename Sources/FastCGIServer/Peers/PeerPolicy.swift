internal import CFastCGI
import FoundationEssentials
import Glibc

/// Which TCP peers may connect (`FCGI_WEB_SERVER_ADDRS`). Unix-socket connections are governed
/// by the socket's permissions instead.
public enum PeerPolicy: Sendable, Equatable {
    /// Loopback only (127.0.0.0/8): the default, so a worker listening on another address
    /// refuses peers it was not told about.
    case loopback
    /// Every peer (`any`: a firewall decides).
    case any
    /// These IPv4 addresses only (network order).
    case only(Set<UInt32>)

    /// Reads `FCGI_WEB_SERVER_ADDRS`: unset or empty is `loopback`, `any` is `any`, else
    /// comma-separated IPv4 addresses as libfcgi reads them; nil when an entry is not one.
    public init?(setting text: String?) {
        guard let text, !text.isEmpty else {
            self = .loopback
            return
        }
        if text == "any" {
            self = .any
            return
        }
        var peers: Set<UInt32> = []
        for entry in text.split(separator: ",") {
            var address = in_addr()
            guard inet_pton(AF_INET, String(entry).trimmingSpaces(), &address) == 1 else { return nil }
            peers.insert(address.s_addr)
        }
        guard !peers.isEmpty else { return nil }
        self = .only(peers)
    }

    /// True when a peer at `address` (IPv4, network order) may connect.
    func admits(_ address: UInt32) -> Bool {
        switch self {
        case .any: true
        case .only(let peers): peers.contains(address)
        case .loopback: withUnsafeBytes(of: address) { $0[0] } == 127  // network order: first octet first
        }
    }
}

extension FastCGIServer {
    /// A group's id from its name or number (`FASTCGI_SOCKET_GROUP`); nil when this machine has none such.
    public static func groupID(_ text: String) -> UInt32? {
        UInt32(text) ?? getgrnam(text).map { $0.pointee.gr_gid }
    }

    /// A user's id from their name or number (`FASTCGI_PEER_USERS`); nil when this machine has none such.
    public static func userID(_ text: String) -> UInt32? {
        UInt32(text) ?? getpwnam(text).map { $0.pointee.pw_uid }
    }
}
