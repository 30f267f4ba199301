import FastCGIServer
import Testing

@Suite struct ListenAddressTests {
    @Test(arguments: [
        ("unix:/run/md.sock", ListenAddress.unixSocket(path: "/run/md.sock")),
        ("/run/md.sock", .unixSocket(path: "/run/md.sock")), ("./md.sock", .unixSocket(path: "./md.sock")),
        ("127.0.0.1:9000", .tcp(host: "127.0.0.1", port: 9000)), (":9000", .tcp(host: "127.0.0.1", port: 9000)),
        ("[::1]:9000", .tcp(host: "[::1]", port: 9000)), ("fd:0", .inherited(fd: 0)),
    ])
    func accepted(text: String, address: ListenAddress) {
        #expect(ListenAddress.parse(text, environment: [:]) == address)
    }

    @Test(arguments: ["", "localhost", "127.0.0.1:0", "127.0.0.1:65536", "127.0.0.1:http", "fd:x", "systemd"])
    func refused(text: String) {
        #expect(ListenAddress.parse(text, environment: [:]) == nil)
    }

    @Test func systemdNeedsTheSocketItHandsOver() {
        #expect(ListenAddress.parse("systemd", environment: ["LISTEN_FDS": "1"]) == .inherited(fd: 3))
        #expect(ListenAddress.parse("systemd", environment: ["LISTEN_FDS": "0"]) == nil)
    }

    @Test func theWebServerListIsIPv4AsInLibfcgi() {
        guard case .only(let peers) = PeerPolicy(setting: "127.0.0.1, 10.0.0.2") else {
            Issue.record("a list of addresses was not read as one")
            return
        }
        #expect(peers.count == 2)
        #expect(PeerPolicy(setting: "127.0.0.1,nginx") == nil)
        #expect(PeerPolicy(setting: "::1") == nil)
        #expect(PeerPolicy(setting: nil) == .loopback)
        #expect(PeerPolicy(setting: "any") == .any)
    }
}
