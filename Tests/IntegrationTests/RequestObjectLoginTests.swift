import Foundation
import TestSupport
import Testing
import Web

/// Issue 50, item 4, through the whole stack: the worker's request objects (JAR) against the dev
/// tenant as Auth0 documents JAR and its FAPI compliance level, and `SECURITY_PROFILE=fapi1-advanced`
/// logging a person in end to end against an application at `fapi1_adv_pkj_par`.
@Suite struct RequestObjectLoginTests {
    /// A stack whose worker is the private_key_jwt application, its key registered for
    /// assertions and request objects (PS256), its ID tokens PS256, PAR allowed; `fapi` puts the
    /// application at `fapi1_adv_pkj_par`, `required` requires request objects of it.
    private func stack(fapi: Bool, required: Bool = false, worker: [String: String]) throws -> Stack {
        let folder = NSTemporaryDirectory() + "jar-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let keys = try PrivateKeyJWTTests.newKeyPair(folder)
        let config = try TestTenant.write(into: folder, name: "tenant.json") { document in
            guard case .array(var clients)? = document["clients"],
                case .object(var client)? = clients.first(where: { $0["client_id"] == "metadata-demo-dev" })
            else { throw StackError("tenant.json is not what the tests expect") }
            let credential: JSONValue = .array([
                .object(["credential_type": "public_key", "pem": .string(keys.publicPEM), "alg": "PS256"])
            ])
            client["client_id"] = .string(TestTenant.privateKeyClient)
            client["client_secret"] = nil
            client["client_authentication_methods"] = .object(["private_key_jwt": .object(["credentials": credential])])
            client["signed_request_object"] = .object(["required": .bool(required), "credentials": credential])
            client["jwt_configuration"] = .object(["alg": "PS256"])
            if fapi { client["compliance_level"] = "fapi1_adv_pkj_par" }
            document["clients"] = .array(clients + [.object(client)])
            // PS256 ID tokens: Auth0's FAPI guide removes the key's alg (RS256) from the JWKS.
            document["tenant"] = .object([
                "allow_pushed_authorization_requests": .bool(true), "remove_alg_from_jwks": .bool(true),
            ])
        }
        let settings = [
            "AUTH0_CLIENT_ID": TestTenant.privateKeyClient, "AUTH0_CLIENT_SECRET": "",
            "CLIENT_ASSERTION_KEY": keys.privatePEM, "CLIENT_ASSERTION_ALG": "PS256", "ID_TOKEN_SIGNING_ALG": "PS256",
        ].merging(worker) { $1 }
        return try Stack(workerEnvironment: settings, tenantEnvironment: ["DEV_TENANT_CONFIG": config])
    }

    /// One setting logs a person in under the FAPI level: pushed, signed, `s_hash` checked.
    @Test func fapi1AdvancedLogsInEndToEnd() throws {
        let stack = try stack(fapi: true, worker: ["SECURITY_PROFILE": "fapi1-advanced"])
        defer { stack.stop() }
        let browser = TestClient()
        let landed = try browser.logIn(stack, as: DemoUser.skippy)
        #expect(
            landed.status == 302 && landed.header("location") == "/",
            "\(landed.status) \(stack.logForAMessage("dev-tenant").suffix(1500))")
        #expect(try browser.get(stack.baseURL + "/").body.contains("You’re logged in!"))
        let tenantLog = try stack.log("dev-tenant")
        #expect(tenantLog.contains("authorization request pushed") && !tenantLog.contains("request object refused"))
    }

    /// Without its request objects the same application is refused at the push (the person reads
    /// that the login could not start); with them, over the front channel, an application that
    /// requires them logs in.
    @Test func theLevelRefusesAnUnsignedRequestAndAFrontChannelObjectLogsIn() throws {
        let unsigned = try stack(fapi: true, worker: ["PUSHED_AUTHORIZATION_REQUESTS": "required"])
        defer { unsigned.stop() }
        let refused = try TestClient().get(unsigned.baseURL + "/login")
        #expect(refused.status == 502, "\(refused.status) \(refused.body.prefix(300))")
        #expect(try unsigned.log("worker").contains("A signed request object (JAR) is required"))

        let front = try stack(
            fapi: false, required: true, worker: ["REQUEST_OBJECTS": "on", "PUSHED_AUTHORIZATION_REQUESTS": "off"])
        defer { front.stop() }
        let browser = TestClient()
        let authorize = try browser.startLogin(front)
        #expect(authorize.contains("request=") && !authorize.contains("state="), "\(authorize)")
        let landed = try browser.get(
            try browser.signIn(at: authorize, email: DemoUser.skippy.email, password: DemoUser.skippy.password))
        #expect(landed.status == 302 && landed.header("location") == "/", "\(landed.status)")
    }
}
