import Auth0Web
import Foundation
import OpenSSLCrypto
import Synchronization
import TestSupport
import Testing
import Web

@Suite struct RelyingPartySettingsTests {
    static let good = [
        "AUTH0_DOMAIN": "tenant.example.com", "AUTH0_CLIENT_ID": "c", "AUTH0_CLIENT_SECRET": "s",
        "AUTH0_SECRET": TestSettings.cookieSecret, "APP_BASE_URL": "https://demo.example.com/",
    ]

    @Test func readsHostAsHTTPSAndDefaults() throws {
        let settings = try RelyingPartySettings(environment: Self.good)
        #expect(settings.issuer == "https://tenant.example.com/")
        #expect(settings.provider.audience == "https://tenant.example.com/api/v2/")
        #expect(settings.baseURL == "https://demo.example.com")
        #expect(settings.callbackURL == "https://demo.example.com/callback")
        #expect(
            settings.provider.scope
                == "openid profile email read:current_user update:current_user_metadata offline_access")
        #expect(settings.secureCookies)
    }

    @Test func reportsEveryProblemAtOnceNamingTheSetting() {
        let bad = [
            "AUTH0_DOMAIN": "http://tenant.example.com", "AUTH0_SECRET": "short,\(String(repeating: "y", count: 40))",
            "APP_BASE_URL": "http://demo.example.com", "AUTH0_LOGOUT": "maybe",
        ]
        let names = TestSettings.problems(in: bad).map { String($0.prefix { $0 != ":" }) }
        #expect(
            names == [
                "AUTH0_DOMAIN", "APP_BASE_URL", "AUTH0_LOGOUT", "AUTH0_CLIENT_ID", "AUTH0_CLIENT_SECRET",
                "AUTH0_SECRET",
            ], "in the order of the groups: provider, client, binding, sessions, assertions")
    }

    @Test func httpIsAcceptedOnlyForLoopback() throws {
        var env = Self.good
        env["AUTH0_DOMAIN"] = "http://127.0.0.1:8081"
        env["APP_BASE_URL"] = "http://127.0.0.1:8080"
        let settings = try RelyingPartySettings(environment: env)
        #expect(settings.issuer == "http://127.0.0.1:8081/")
        #expect(!settings.secureCookies)
    }

    /// Keycloak, Okta, Entra ID and Google publish issuers with a path or without a trailing
    /// slash; tokens and discovery must name them exactly, so they are kept as given.
    @Test(arguments: [
        ("https://sso.example.com/realms/demo", "https://sso.example.com/realms/demo", "https://sso.example.com"),
        (
            "https://Example.okta.com/oauth2/default/", "https://example.okta.com/oauth2/default/",
            "https://example.okta.com"
        ),
        ("https://accounts.google.com", "https://accounts.google.com", "https://accounts.google.com"),
        ("http://127.0.0.1:9090/op", "http://127.0.0.1:9090/op", "http://127.0.0.1:9090"),
    ])
    func anIssuerURLIsKeptAsPublished(text: String, issuer: String, origin: String) throws {
        var env = Self.good
        env["AUTH0_DOMAIN"] = nil
        env["ISSUER_BASE_URL"] = text
        let settings = try RelyingPartySettings(environment: env)
        #expect(settings.issuer == issuer)
        #expect(settings.provider.issuerSetting == "ISSUER_BASE_URL")
        #expect(settings.tenantOrigin == origin)
        #expect(settings.issuerBase.hasSuffix("/") && settings.issuerBase.hasPrefix(issuer))
        #expect(settings.provider.logoutMode == .oidc, "/v2/logout is Auth0's own")
    }

    @Test(arguments: [
        (["AUTH0_DOMAIN": "sso.example.com/realms/demo"], "AUTH0_DOMAIN: \"sso.example.com/realms/demo\" has a path"),
        (["AUTH0_DOMAIN": "http://127.0.0.1:9090/op"], "set ISSUER_BASE_URL instead"),
        (
            ["ISSUER_BASE_URL": "https://sso.example.com/realms/demo"],
            "ISSUER_BASE_URL: set it or AUTH0_DOMAIN, not both"
        ),
        (["AUTH0_DOMAIN": "", "ISSUER_BASE_URL": "http://sso.example.com/realms/demo"], "ISSUER_BASE_URL: \"http://"),
        (["AUTH0_DOMAIN": "", "ISSUER_BASE_URL": "https://sso.example.com/?realm=demo"], "with no query"),
    ])
    func theIssuerSettingsSayWhatIsWrong(changes: [String: String], says: String) {
        var env = Self.good
        for (name, value) in changes { env[name] = value }
        let problems = TestSettings.problems(in: env)
        #expect(problems.count == 1)
        #expect(problems.first?.contains(says) == true, "\(problems)")
    }

    /// Auth0's own features follow the provider: `AUTH0_DOMAIN` or an issuer on `*.auth0.com`
    /// is Auth0; any other issuer is generic unless `OIDC_PROVIDER` says otherwise.
    @Test(arguments: [
        (["ISSUER_BASE_URL": "https://sso.example.com/realms/demo"], false),
        (["ISSUER_BASE_URL": "https://tenant.eu.auth0.com/"], true),
        (["ISSUER_BASE_URL": "https://login.example.com/", "OIDC_PROVIDER": "auth0"], true),
        (["ISSUER_BASE_URL": "https://tenant.eu.auth0.com/", "OIDC_PROVIDER": "generic"], false),
    ])
    func theProviderProfileFollowsTheIssuerOrTheSetting(changes: [String: String], isAuth0: Bool) throws {
        var env = Self.good
        env["AUTH0_DOMAIN"] = nil
        for (name, value) in changes { env[name] = value }
        let settings = try RelyingPartySettings(environment: env)
        #expect(settings.provider.isAuth0 == isAuth0)
        #expect(
            settings.provider.scope
                == (isAuth0 ? ProviderDialect.auth0.defaultScope : "openid profile email offline_access")
        )
        #expect((settings.provider.audience != nil) == isAuth0)
        #expect(settings.provider.logoutMode == (isAuth0 ? .v2 : .oidc))
        env["OIDC_PROVIDER"] = "keycloak"
        #expect(
            performing: { try RelyingPartySettings(environment: env) },
            throws: { error in
                (error as? SettingsProblems)?.lines == ["OIDC_PROVIDER: must be auth0 or generic"]
            })
    }

    /// A secret file as its owner alone may read it (mode 0600).
    private func secretFile(_ text: String, mode: Int = 0o600) throws -> String {
        let path = NSTemporaryDirectory() + "secret-\(UUID().uuidString)"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        return path
    }

    @Test func secretsMayComeFromFilesAndRotate() throws {
        let path = try secretFile("\(TestSettings.cookieSecret),\(TestSettings.otherCookieSecret)\n")
        var env = Self.good
        env["AUTH0_SECRET"] = nil
        env["AUTH0_SECRET_FILE"] = path
        #expect(try RelyingPartySettings(environment: env).sessions.cookieSecrets.count == 2)
        env["AUTH0_SECRET_FILE"] = "/nonexistent/secret"
        #expect(throws: SettingsProblems.self) { try RelyingPartySettings(environment: env) }
    }

    /// Review 3, smaller: a secret file others could read was taken as it was.
    @Test(arguments: [0o644, 0o604, 0o620, 0o666])
    func aSecretFileOthersCanReadIsRefused(mode: Int) throws {
        let path = try secretFile(TestSettings.cookieSecret, mode: mode)
        var env = Self.good
        env["AUTH0_SECRET"] = nil
        env["AUTH0_SECRET_FILE"] = path
        #expect(
            performing: { try RelyingPartySettings(environment: env) },
            throws: { error in
                (error as? SettingsProblems)?.lines
                    == [
                        "AUTH0_SECRET_FILE: \(path) can be read or changed by other users (mode \(String(mode, radix: 8))); "
                            + "run `chmod 600 \(path)`"
                    ]
            })
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: path)
        #expect(
            try RelyingPartySettings(environment: env).sessions.cookieSecrets == [TestSettings.cookieSecret],
            "its group may read")
    }

    /// Review 3, smaller: `openssl ecparam -genkey` writes an EC PARAMETERS block before the key,
    /// which was refused as "not a key"; an encrypted key is refused with why (OpenSSL would have
    /// asked for its password on the terminal).
    @Test func assertionKeysAsOpenSSLWritesThemAndEncryptedOnesSayWhy() throws {
        let parameters = "-----BEGIN EC PARAMETERS-----\nBggqhkjOPQMBBw==\n-----END EC PARAMETERS-----\n"
        let key = try ECPrivateKey().pem()
        var env = Self.good
        env["IDENTITY_ASSERTION_KEY_FILE"] = try secretFile(parameters + key)
        #expect(try RelyingPartySettings(environment: env).assertions.keys.count == 1)
        let encrypted = try Self.openssl(["pkey", "-aes256", "-passout", "pass:secret"], input: key)
        #expect(encrypted.hasPrefix("-----BEGIN ENCRYPTED PRIVATE KEY-----"))
        env["IDENTITY_ASSERTION_KEY_FILE"] = try secretFile(encrypted)
        #expect(
            performing: { try RelyingPartySettings(environment: env) },
            throws: { error in
                (error as? SettingsProblems)?.lines.first?.hasPrefix("IDENTITY_ASSERTION_KEY: PEM block 1 is encrypted")
                    == true
            })
    }

    private static func openssl(_ arguments: [String], input: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = arguments
        let (stdin, stdout) = (Pipe(), Pipe())
        process.standardInput = stdin
        process.standardOutput = stdout
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: output, as: UTF8.self)
    }

    @Test func theManagementAPIIsTheAudienceWhenItIsOne() throws {
        #expect(
            try RelyingPartySettings(environment: TestSettings.environment).managementAPI
                == "https://tenant.example.com/api/v2/")
        let custom = try RelyingPartySettings(
            environment: TestSettings.environment([
                "AUTH0_DOMAIN": "login.example.com", "AUTH0_AUDIENCE": "https://tenant.eu.auth0.com/api/v2/",
            ]))
        #expect(custom.issuer == "https://login.example.com/")
        #expect(custom.managementAPI == "https://tenant.eu.auth0.com/api/v2/")
        let otherAPI = try RelyingPartySettings(
            environment: TestSettings.environment(["AUTH0_AUDIENCE": "https://api.example.com"]))
        #expect(otherAPI.managementAPI == "https://tenant.example.com/api/v2/")
    }

    /// Loopback is decided by reading the host as an address: a name that merely starts with
    /// `127.` gets neither plain http to the tenant nor cookies without `Secure`.
    @Test(arguments: [
        ("http://127.0.0.1:8081", true), ("http://127.1.2.3", true), ("http://localhost:8081", true),
        ("http://[::1]:8081", true), ("http://127.evil.example", false), ("http://127.0.0.1.evil.example", false),
        ("http://127.0.0.256", false), ("http://1127.0.0.1", false), ("http://128.0.0.1", false),
    ])
    func onlyLoopbackAddressesMayUsePlainHTTP(url: String, accepted: Bool) {
        #expect(
            ((try? RelyingPartySettings(environment: TestSettings.environment(["AUTH0_DOMAIN": url]))) != nil)
                == accepted)
        #expect(
            ((try? RelyingPartySettings(environment: TestSettings.environment(["APP_BASE_URL": url]))) != nil)
                == accepted)
    }

    @Test(arguments: [
        TestSettings.cookieSecret, "P5wN8x2kQ7vR1mZ4tY9bC3jH6fL0sD8gA2eK5uW7iO0=",
        "P5wN8x2kQ7vR1mZ4tY9bC3jH6fL0sD8gA2eK5uW7iO0", "P5wN8x2kQ7vR1mZ4tY9bC3jH6fL0sD8gA2eK5uW7-_0",
    ])
    func randomHexOrBase64SecretsAreAccepted(secret: String) {
        #expect((try? RelyingPartySettings(environment: TestSettings.environment(["AUTH0_SECRET": secret]))) != nil)
    }

    /// A chosen phrase or a repeated pattern is refused, naming the setting and how to make one.
    @Test(arguments: [
        "correct horse battery staple 1234", String(repeating: "x", count: 32), String(repeating: "ab", count: 32),
        String(repeating: "0", count: 64), "00112233445566778899aabbccddeeff", TestSettings.cookieSecret + ",short",
    ])
    func weakSecretsAreRefused(secret: String) throws {
        let problems = TestSettings.problems(["AUTH0_SECRET": secret])
        #expect(problems.count == 1)
        #expect(problems.first?.hasPrefix("AUTH0_SECRET: ") == true)
        #expect(problems.first?.contains("openssl rand -hex 32") == true)
    }
}
