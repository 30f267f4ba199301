import Foundation
import TestSupport
import Testing
import Web

/// Issue 41, item 2, end to end: an application registered with a Private Key JWT credential and
/// no secret at the dev tenant (as Auth0 keeps them), and a worker given only the private key
/// (`metadata-demo new-client-key`; its public half by `openssl pkey -pubout`). The person logs
/// in, the session renews and logs out, every call to the tenant proved by a signed assertion;
/// `check-config` proves the key, and blames it, not the client id, when the tenant refuses it.
@Suite(.serialized) struct PrivateKeyJWTTests {
    /// A new key pair made as an operator would: the private PEM and its public PEM.
    static func newKeyPair(_ folder: String) throws -> (privatePEM: String, publicPEM: String) {
        let privatePEM = try Stack.check(Stack.binDir + "/metadata-demo", ["new-client-key"])
        let path = folder + "/client-key-\(UUID().uuidString.prefix(8)).pem"
        try privatePEM.write(toFile: path, atomically: true, encoding: .utf8)
        let publicPEM = try Stack.check("/usr/bin/openssl", ["pkey", "-in", path, "-pubout"])
        return (privatePEM, publicPEM)
    }

    /// A stack whose worker is the `private_key_jwt` application, with `extra` settings; PAR
    /// allowed and required of it when `pushing`.
    private func stack(
        pushing: Bool = false, dpop: Bool = false, algorithm: String = "RS256", extra: [String: String] = [:]
    ) throws
        -> (Stack, privatePEM: String)
    {
        let folder = NSTemporaryDirectory() + "pkjwt-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let keys = try Self.newKeyPair(folder)
        let config = try TestTenant.writeVariant(
            into: folder, name: "tenant.json", pushing: pushing, credential: (keys.publicPEM, algorithm),
            dpop: (allowed: dpop, nonce: false))
        let worker = [
            "AUTH0_CLIENT_ID": TestTenant.privateKeyClient, "AUTH0_CLIENT_SECRET": "",
            "CLIENT_ASSERTION_KEY": keys.privatePEM, "CLIENT_ASSERTION_ALG": algorithm,
        ].merging(extra) { $1 }
        let stack = try Stack(workerEnvironment: worker, tenantEnvironment: ["DEV_TENANT_CONFIG": config])
        return (stack, keys.privatePEM)
    }

    @Test(arguments: ["RS256", "PS256", "RS384"]) func aPersonLogsInRenewsAndLogsOut(algorithm: String) throws {
        let (stack, _) = try stack(algorithm: algorithm, extra: ["SESSION_REVALIDATE_SECONDS": "1"])
        defer { stack.stop() }
        let browser = TestClient()
        let landed = try browser.logIn(stack, as: DemoUser.skippy)
        #expect(landed.status == 302 && landed.header("location") == "/", "\(landed.status) \(landed.body.prefix(300))")
        #expect(try browser.get(stack.baseURL + "/").body.contains("You’re logged in!"))
        // Revalidation renews with the refresh token: another assertion, another jti.
        let grants = { try stack.log("dev-tenant").components(separatedBy: "grant_type=refresh_token").count - 1 }
        #expect(
            eventually(within: 10) {
                (try? browser.get(stack.baseURL + "/").body.contains("logged in!")) == true
                    && ((try? grants()) ?? 0) >= 1
            }, "\(stack.logForAMessage("dev-tenant").suffix(1500))")
        let tenantLog = try stack.log("dev-tenant")
        #expect(!tenantLog.contains("client assertion refused"), "\(tenantLog.suffix(1500))")
        let csrf = try #require(TestClient.hiddenField("csrf", in: try browser.get(stack.baseURL + "/").body))
        let out = try browser.post(
            stack.baseURL + "/logout", form: [("csrf", csrf)], headers: [("Origin", stack.baseURL)])
        #expect(out.status == 303)
        #expect(
            eventually(within: 5) { (try? stack.log("dev-tenant").contains("path=/oauth/revoke status=200")) == true })
    }

    @Test func pushedRequestsAreProvedWithTheKeyToo() throws {
        let (stack, _) = try stack(pushing: true)
        defer { stack.stop() }
        let browser = TestClient()
        let authorize = try browser.startLogin(stack)
        #expect(authorize.contains("request_uri=urn"), "\(authorize)")
        let callback = try browser.signIn(
            at: authorize, email: DemoUser.skippy.email, password: DemoUser.skippy.password)
        #expect(try browser.get(callback).header("location") == "/")
        #expect(try stack.log("dev-tenant").contains("authorization request pushed"))
    }

    @Test func checkConfigProvesTheKeyAndBlamesAnotherKeyNotTheClientID() throws {
        let (stack, _) = try stack()
        defer { stack.stop() }
        var environment = stack.devEnvironment
        environment.merge(stack.workerEnvironment) { $1 }
        let good = try Stack.run(Stack.binDir + "/metadata-demo", ["check-config"], environment: environment)
        #expect(good.status == 0, "\(good.output)")
        let folder = NSTemporaryDirectory() + "pkjwt-other-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        environment["CLIENT_ASSERTION_KEY"] = try Self.newKeyPair(folder).privatePEM
        let other = try Stack.run(Stack.binDir + "/metadata-demo", ["check-config"], environment: environment)
        #expect(other.status == 1, "\(other.output)")
        #expect(
            other.output.contains("AUTH0_CLIENT_ID or CLIENT_ASSERTION_KEY (is its public key among"), "\(other.output)"
        )
        #expect(!other.output.contains("AUTH0_CLIENT_SECRET"))
    }
}
