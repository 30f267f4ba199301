import Foundation
import TestSupport
import Testing
import Web

/// Issue 41, item 2, against code nobody here wrote: PyPI's oidc-provider-mock with Authlib's own
/// RFC 7523 client authentication (`JWTBearerClientAssertion`: the signature by the registered
/// public key, `iss` = `sub`, `aud` its token endpoint, `exp`, each `jti` once), which the OpenID
/// Foundation's `rp-token_endpoint-private_key_jwt` asks of a Relying Party. The worker holds
/// only the private key: no client secret exists.
@Suite(.serialized) final class AuthlibPrivateKeyJWTTests {
    let stack: Stack
    let issuer: String
    let privatePEM: String
    static let clientID = "metadata-demo-rp"

    init() throws {
        stack = try Stack(workers: 0)
        let keys = try PrivateKeyJWTTests.newKeyPair(stack.runDir)
        let publicFile = stack.runDir + "/client-public.pem"
        try keys.publicPEM.write(toFile: publicFile, atomically: true, encoding: .utf8)
        privatePEM = keys.privatePEM
        let callback = stack.baseURL + "/callback"
        let port = try stack.startProvider("authlib-provider") {
            [Stack.repoRoot + "/Tests/Providers/authlib_private_key_jwt.py", "--port", String($0)]
                + ["--client-id", Self.clientID, "--redirect-uri", callback, "--public-key", publicFile]
        }
        issuer = "http://127.0.0.1:\(port)"
    }

    deinit { stack.stop() }

    private func startWorker(key: String, _ extra: [String: String] = [:]) throws {
        try stack.startWorker(
            issuer: issuer, clientID: Self.clientID, secret: "", ["CLIENT_ASSERTION_KEY": key].merging(extra) { $1 })
    }

    private func tokenAnswers() throws -> [String] {
        try stack.log("authlib-provider").split(separator: "\n").filter { $0.contains("\"POST /oauth2/token") }
            .map { String($0.suffix(15)) }
    }

    @Test func aPersonLogsInAndTheSessionRenewsWithAssertionsOnly() throws {
        try startWorker(key: privatePEM, ["SESSION_REVALIDATE_SECONDS": "1"])
        let browser = TestClient()
        let landing = try browser.logIn(stack, atProviderWith: [("sub", "ada@example.com")])
        #expect(landing.status == 302 && landing.header("location") == "/", "\(landing.status) \(landing.body)")
        #expect(try browser.get(stack.baseURL + "/").body.contains("ada@example.com"))
        // Revalidation renews with the refresh token: a second assertion, its own jti, accepted.
        #expect(
            eventually(within: 10) {
                _ = try? browser.get(stack.baseURL + "/")
                return ((try? tokenAnswers()) ?? []).filter { $0.contains("200") }.count >= 2
            }, "\(stack.logForAMessage("authlib-provider").suffix(2000))")
        #expect(try browser.get(stack.baseURL + "/").body.contains("ada@example.com"), "still logged in")
        #expect(try !stack.log("authlib-provider").contains("invalid_client"))
    }

    @Test func anotherKeyIsRefusedAndCheckConfigNamesIt() throws {
        let other = try PrivateKeyJWTTests.newKeyPair(stack.runDir).privatePEM
        try startWorker(key: other)
        let landing = try TestClient().logIn(stack, atProviderWith: [("sub", "ada@example.com")])
        #expect(landing.status == 400 && landing.body.contains("Login failed"), "\(landing.status)")
        #expect(try stack.log("authlib-provider").contains("invalid_client"))
        var environment = stack.devEnvironment.merging(
            Stack.providerSettings(issuer: issuer, clientID: Self.clientID, secret: "")
        ) { $1 }
        environment["CLIENT_ASSERTION_KEY"] = other
        let checked = try Stack.run(Stack.binDir + "/metadata-demo", ["check-config"], environment: environment)
        #expect(
            checked.status == 1 && checked.output.contains("CLIENT_ASSERTION_KEY (is its public key"),
            "\(checked.output)")
        environment["CLIENT_ASSERTION_KEY"] = privatePEM
        let good = try Stack.run(Stack.binDir + "/metadata-demo", ["check-config"], environment: environment)
        #expect(good.status == 0, "\(good.output)")
    }
}
