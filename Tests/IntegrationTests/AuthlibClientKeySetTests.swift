import Foundation
import TestSupport
import Testing
import Web

/// Issue 50, item 6, against code nobody here wrote: the same Authlib provider as
/// `AuthlibPrivateKeyJWTTests`, but registered with this application's `jwks_uri` (the worker's
/// `/client-jwks.json`, read at each assertion) instead of a public key. joserfc picks the key the
/// assertion's `kid` names among the two published, so the kids must be the ones the worker signs
/// with; a rotation (the second key signing first) needs nothing done at the provider.
@Suite(.serialized) final class AuthlibClientKeySetTests {
    let stack: Stack
    let issuer: String
    static let clientID = "metadata-demo-rp"

    init() throws { (stack, issuer) = try Self.startProvider(clientID: Self.clientID) }

    /// A stack with no worker yet, and Authlib's provider registered with its `jwks_uri` (with
    /// `options`): the stack and the provider's issuer.
    static func startProvider(clientID: String, _ options: [String] = []) throws -> (Stack, String) {
        let stack = try Stack(workers: 0)
        let callback = stack.baseURL + "/callback"
        let keySet = stack.baseURL + "/client-jwks.json"
        let port = try stack.startProvider("authlib-provider") {
            [Stack.repoRoot + "/Tests/Providers/authlib_private_key_jwt.py", "--port", String($0)]
                + ["--client-id", clientID, "--redirect-uri", callback, "--jwks-uri", keySet] + options
        }
        return (stack, "http://127.0.0.1:\(port)")
    }

    deinit { stack.stop() }

    /// The worker, (re)started signing with the first of `keys` and publishing them all.
    private func worker(keys: [String]) throws {
        let name = Stack.workerName(1)
        if stack.isRunning(name) {
            stack.send(SIGTERM, to: name)
            #expect(eventually(within: 15) { !self.stack.isRunning(name) })
        }
        try stack.startWorker(
            issuer: issuer, clientID: Self.clientID, secret: "", ["CLIENT_ASSERTION_KEY": keys.joined()])
    }

    @Test func theProviderFollowsARotationThroughThePublishedSetAlone() throws {
        let first = try PrivateKeyJWTTests.newKeyPair(stack.runDir).privatePEM
        let second = try PrivateKeyJWTTests.newKeyPair(stack.runDir).privatePEM
        try worker(keys: [first, second])
        let published = try TestClient().get(stack.baseURL + "/client-jwks.json")
        let keys = try #require(JSONValue.parse(Array(published.body.utf8))?["keys"]?.array)
        #expect(keys.count == 2 && keys.allSatisfy { $0["d"] == nil && $0["kid"]?.string != nil }, "\(published.body)")
        for signing in [[first, second], [second, first]] {
            try worker(keys: signing)
            let landing = try TestClient().logIn(stack, atProviderWith: [("sub", "ada@example.com")])
            #expect(
                landing.status == 302 && landing.header("location") == "/",
                "\(landing.status) \(stack.logForAMessage("authlib-provider").suffix(1500))")
        }
        #expect(try !stack.log("authlib-provider").contains("invalid_client"))
    }
}
