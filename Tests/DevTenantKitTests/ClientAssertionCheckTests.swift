import DevTenantKit
import Foundation
import OpenSSLCrypto
import Testing
import Web

/// Issue 41, item 2: the dev tenant's Private Key JWT checks, as Auth0's guide lists them: the
/// credential's algorithm, `iss` = `sub` = the client, `aud` the tenant's URL, at most five
/// minutes of life, a `jti` used once; and an application with credentials has no secret to use.
@Suite struct ClientAssertionCheckTests {
    static let folder = NSTemporaryDirectory() + "dev-tenant-pkjwt-\(UUID().uuidString.prefix(8))"
    // swift-format-ignore: NeverUseForceTry
    /// The application's key pair (making one takes a while).
    static let key = try! RSAPrivateKey(generatingBits: 2048)
    static let issuer = "http://127.0.0.1:8081/"

    private func tenant() throws -> DevTenant {
        try FileManager.default.createDirectory(atPath: Self.folder, withIntermediateDirectories: true)
        // The public half as PEM, written by OpenSSL's own command from the private key.
        let keyFile = Self.folder + "/client.pem"
        try Self.key.pem().write(toFile: keyFile, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = ["pkey", "-in", keyFile, "-pubout"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let publicPEM = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(publicPEM.hasPrefix("-----BEGIN PUBLIC KEY-----"))
        let pem = publicPEM.replacingOccurrences(of: "\n", with: "\\n")
        let config = Self.folder + "/tenant-\(UUID().uuidString.prefix(8)).json"
        try """
        {"clients": [{"name": "Key app", "client_id": "key-app", "callbacks": ["http://127.0.0.1:8080/callback"],
          "client_secret": "a-secret-it-may-not-use-0123456789",
          "client_authentication_methods": {"private_key_jwt": {"credentials": [
            {"credential_type": "public_key", "pem": "\(pem)", "alg": "RS256"}]}}}]}
        """.write(toFile: config, atomically: true, encoding: .utf8)
        return try DevTenantTests.make(["DEV_TENANT_ISSUER": Self.issuer, "DEV_TENANT_CONFIG": config])
    }

    private func assertion(
        alg: String = "RS256", claims change: (inout [String: JSONValue]) -> Void = { _ in }
    ) throws -> String {
        let now = Date().timeIntervalSince1970.rounded(.down)
        var claims: [String: JSONValue] = [
            "iss": "key-app", "sub": "key-app", "aud": .string(Self.issuer), "iat": .number(now),
            "exp": .number(now + 60), "jti": .string(UUID().uuidString),
        ]
        change(&claims)
        let input =
            Base64URL.encode(JSONValue.object(["alg": .string(alg), "typ": "JWT"]).serialized()) + "."
            + Base64URL.encode(JSONValue.object(claims).serialized())
        let signature = try Self.key.sign(Array(input.utf8), digest: .sha256, pss: alg == "PS256")
        return input + "." + Base64URL.encode(signature)
    }

    /// The token endpoint's answer to a refresh of a made-up token: 403 `invalid_grant` once the
    /// application is proved, 401 when it is not.
    private func status(_ tenant: DevTenant, _ proof: [(String, String)]) -> Int {
        tenant.respond(
            to: Request(
                method: "POST", path: "/oauth/token", headers: ["content-type": "application/x-www-form-urlencoded"],
                body: Array(
                    PercentEncoding.formEncode(
                        [("grant_type", "refresh_token"), ("refresh_token", "made-up")] + proof
                    ).utf8))
        ).status
    }

    private func proof(_ token: String) -> [(String, String)] {
        [
            ("client_assertion_type", "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"),
            ("client_assertion", token),
        ]
    }

    @Test func aGoodAssertionProvesTheApplicationOnce() throws {
        let tenant = try tenant()
        let token = try assertion()
        #expect(status(tenant, proof(token)) == 403)
        #expect(status(tenant, proof(token)) == 401, "the same jti again")
        #expect(status(tenant, proof(try assertion()) + [("client_id", "key-app")]) == 403)
    }

    @Test func everyCheckRefuses() throws {
        let tenant = try tenant()
        #expect(status(tenant, proof(try assertion(alg: "PS256"))) == 401, "not the credential's algorithm")
        #expect(status(tenant, proof(try assertion { $0["aud"] = "http://127.0.0.1:8081/oauth/token" })) == 401)
        #expect(status(tenant, proof(try assertion { $0["sub"] = "someone-else" })) == 401)
        #expect(status(tenant, proof(try assertion { $0["exp"] = .number(Date().timeIntervalSince1970 + 600) })) == 401)
        #expect(status(tenant, proof(try assertion { $0["exp"] = .number(Date().timeIntervalSince1970 - 5) })) == 401)
        #expect(status(tenant, proof(try assertion { $0["jti"] = nil })) == 401)
        let tampered = try assertion().dropLast(4) + "AAAA"
        #expect(status(tenant, proof(String(tampered))) == 401)
        #expect(status(tenant, proof(try assertion()) + [("client_id", "another-app")]) == 401)
        #expect(
            status(tenant, [("client_id", "key-app"), ("client_secret", "a-secret-it-may-not-use-0123456789")]) == 401)
    }
}
