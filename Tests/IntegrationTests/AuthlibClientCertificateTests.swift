import Foundation
import TestSupport
import Testing
import Web

/// Issue 50, item 5, against code nobody here wrote: Authlib's provider registered with this
/// application's `jwks_uri`, finding the client's key as Microsoft Entra ID finds a certificate
/// credential, by the certificate the assertion's header names with its thumbprints (`x5t#S256`,
/// `x5t`: PyPI's cryptography computes them from the published `x5c`); Authlib checks the
/// signature. The keys and certificates come from `metadata-demo new-client-key --certificate`.
@Suite(.serialized) final class AuthlibClientCertificateTests {
    let stack: Stack
    let issuer: String
    static let clientID = "metadata-demo-entra-like"

    init() throws {
        (stack, issuer) = try AuthlibClientKeySetTests.startProvider(clientID: Self.clientID, ["--by-certificate"])
    }

    deinit { stack.stop() }

    /// A new key from the product's own command, with its self-signed certificate (PEM each).
    private func newKey() throws -> (key: String, certificate: String, file: String) {
        let file = stack.runDir + "/client-certificate-\(UUID().uuidString.prefix(8)).pem"
        let key = try Stack.check(
            Stack.binDir + "/metadata-demo", ["new-client-key", "--certificate", file, "--name", "Metadata demo test"])
        return (key, try String(contentsOfFile: file, encoding: .utf8), file)
    }

    /// The worker, (re)started with `settings`.
    private func worker(_ settings: [String: String]) throws {
        let name = Stack.workerName(1)
        if stack.isRunning(name) {
            stack.send(SIGTERM, to: name)
            #expect(eventually(within: 15) { !self.stack.isRunning(name) })
        }
        try stack.startWorker(issuer: issuer, clientID: Self.clientID, secret: "", settings)
    }

    private func logsIn() throws -> Bool {
        let landing = try TestClient().logIn(stack, atProviderWith: [("sub", "ada@example.com")])
        return landing.status == 302 && landing.header("location") == "/"
    }

    @Test func theProviderFindsTheKeyByItsCertificatesThumbprints() throws {
        let (first, second) = (try newKey(), try newKey())
        // Without the certificate the assertions name none, and this provider finds no key.
        try worker(["CLIENT_ASSERTION_KEY": first.key + second.key])
        #expect(try !logsIn())
        #expect(try stack.log("authlib-provider").contains("invalid_client"))

        for (keys, certificates) in [
            (first.key + second.key, second.certificate + first.certificate),
            (second.key + first.key, first.certificate + second.certificate),
        ] {
            try worker(["CLIENT_ASSERTION_KEY": keys, "CLIENT_ASSERTION_CERTIFICATE": certificates])
            #expect(try logsIn(), "\(stack.logForAMessage("authlib-provider").suffix(1500))")
        }
        // The published certificates are the files', their thumbprints as openssl computes them.
        let published = try TestClient().get(stack.baseURL + "/client-jwks.json")
        let keys = try #require(JSONValue.parse(Array(published.body.utf8))?["keys"]?.array)
        #expect(keys.count == 2, "\(published.body)")
        for (key, made) in zip(keys, [second, first]) {
            let der = try Stack.check("/bin/sh", ["-c", "openssl x509 -in '\(made.file)' -outform DER | base64 -w0"])
            #expect(key["x5c"]?.array?.first?.string == der)
            let fingerprint = try Stack.check(
                "/usr/bin/openssl", ["x509", "-in", made.file, "-noout", "-fingerprint", "-sha256"])
            let hex = fingerprint.split(separator: "=").last.map { $0.filter(\.isHexDigit) } ?? ""
            let bytes = stride(from: 0, to: hex.count, by: 2).compactMap { offset -> UInt8? in
                let start = hex.index(hex.startIndex, offsetBy: offset)
                return UInt8(hex[start..<hex.index(start, offsetBy: 2)], radix: 16)
            }
            #expect(bytes.count == 32 && key["x5t#S256"]?.string == Base64URL.encode(bytes))
        }
    }
}
