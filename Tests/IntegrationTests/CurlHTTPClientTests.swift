import CurlClient
import Foundation
import Testing
import Web

/// The libcurl client against a real HTTP peer on loopback (Python's http.server).
@Suite(.serialized) final class CurlHTTPClientTests {
    let directory = NSTemporaryDirectory() + "curl-peer-\(UUID().uuidString.prefix(8))"
    let peer: LocalHTTPPeer
    var port: Int { peer.port }

    init() throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try Data(repeating: UInt8(ascii: "a"), count: 1 << 20).write(
            to: URL(fileURLWithPath: directory + "/exactly-1mib"))
        try Data(repeating: UInt8(ascii: "a"), count: (1 << 20) + 1).write(
            to: URL(fileURLWithPath: directory + "/over"))
        peer = try LocalHTTPPeer(serving: directory)
    }

    deinit {
        peer.stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// A tenant is not trusted to keep its answers small: past 1 MiB the call fails with a
    /// typed error instead of buffering whatever comes.
    @Test func anAnswerOverOneMebibyteIsRefusedWithATypedError() throws {
        let client = CurlHTTPClient()
        let fits = try client.send(HTTPClientRequest(method: "GET", url: "http://127.0.0.1:\(port)/exactly-1mib"))
        #expect(fits.status == 200)
        #expect(fits.body.count == 1 << 20)
        #expect(throws: HTTPClientError.self) {
            try client.send(HTTPClientRequest(method: "GET", url: "http://127.0.0.1:\(port)/over"))
        }
        do {
            _ = try client.send(HTTPClientRequest(method: "GET", url: "http://127.0.0.1:\(port)/over"))
        } catch let error as HTTPClientError {
            #expect(error.kind == .tooLarge)
        }
        let smaller = HTTPClientRequest(
            method: "GET", url: "http://127.0.0.1:\(port)/exactly-1mib", maxResponseBytes: 1000)
        #expect(throws: HTTPClientError(.tooLarge, "answer over 1000 bytes")) { try client.send(smaller) }
    }
}
