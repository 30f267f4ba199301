import Auth0Web
import Foundation
import Synchronization
import Testing
import Web

@Suite struct TokenRenewerTests {
    private func renewer(_ tenant: RecordedTenant, clock: Clock = .system) -> TokenRenewer {
        TokenRenewer(tokens: TokenClient(settings: ManagementClientTests.settings, http: tenant), clock: clock)
    }

    @Test func concurrentRenewalsOfOneRefreshTokenReachTheTenantOnce() throws {
        let tenant = RecordedTenant { _ in
            usleep(100_000)  // a slow tenant, so the others arrive while it works
            return HTTPClientResponse(
                status: 200,
                body: Array(
                    #"{"access_token":"AT2","refresh_token":"RT2","expires_in":86400,"token_type":"Bearer"}"#.utf8))
        }
        let renewer = renewer(tenant)
        let results = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            let tokens = try? renewer.renew(refreshToken: "RT1")
            results.withLock { $0.append(tokens?.refreshToken ?? "failed") }
        }
        #expect(results.withLock { $0 } == Array(repeating: "RT2", count: 8))
        #expect(tenant.sent.count == 1)
        #expect(renewer.renewalCount == 1)
        let form = try FormData(urlEncoded: tenant.sent[0].body)
        #expect(form["grant_type"] == "refresh_token")
        #expect(form["refresh_token"] == "RT1")
        #expect(form["client_id"] == "c")
    }

    @Test func aLateRequestWithTheOldTokenGetsTheSameResultNotAReplay() throws {
        let tenant = RecordedTenant { _ in
            HTTPClientResponse(
                status: 200, body: Array(#"{"access_token":"AT2","refresh_token":"RT2","expires_in":60}"#.utf8))
        }
        let renewer = renewer(tenant)
        #expect(try renewer.renew(refreshToken: "RT1").accessToken == "AT2")
        #expect(try renewer.renew(refreshToken: "RT1").accessToken == "AT2")
        #expect(tenant.sent.count == 1)
    }

    @Test func aRefusedRefreshTokenIsAnError() {
        let tenant = RecordedTenant.json(
            403, #"{"error":"invalid_grant","error_description":"Unknown or invalid refresh token."}"#)
        #expect(throws: AuthError(.refreshFailed, "403 invalid_grant")) {
            try renewer(tenant).renew(refreshToken: "RT")
        }
    }
}

@Suite struct TokenClientTests {
    @Test func codeExchangeSendsPKCEVerifierAndClientSecretPost() throws {
        let tenant = RecordedTenant.json(
            200,
            #"{"access_token":"AT","id_token":"ID","refresh_token":"RT","token_type":"Bearer","expires_in":86400,"scope":"openid"}"#
        )
        let tokens = try TokenClient(settings: ManagementClientTests.settings, http: tenant).exchange(
            code: "C", codeVerifier: "V")
        #expect(tokens.accessToken == "AT")
        #expect(tokens.idToken == "ID")
        #expect(tokens.expiresIn == 86_400)
        let sent = try #require(tenant.sent.first)
        #expect(sent.url == "https://tenant.example.com/oauth/token")
        let form = try FormData(urlEncoded: sent.body)
        #expect(form["grant_type"] == "authorization_code")
        #expect(form["code_verifier"] == "V")
        #expect(form["redirect_uri"] == "https://demo.example.com/callback")
        #expect(form["client_secret"] == "s")
    }

    @Test func errorsKeepTheOAuthErrorNameButNoSecrets() {
        let tenant = RecordedTenant.json(
            403, #"{"error":"invalid_grant","error_description":"Invalid authorization code"}"#)
        do {
            _ = try TokenClient(settings: ManagementClientTests.settings, http: tenant).exchange(
                code: "SECRET-CODE", codeVerifier: "V")
        } catch let error as AuthError {
            #expect(error.code == .codeExchangeFailed)
            #expect(!error.description.contains("SECRET-CODE"))
            #expect(error.description.contains("invalid_grant"))
        } catch {
            Issue.record("unexpected \(error)")
        }
        let down = RecordedTenant { _ in throw HTTPClientError(.timeout, "t") }
        #expect(throws: AuthError(.tenantUnreachable, "timeout")) {
            try TokenClient(settings: ManagementClientTests.settings, http: down).exchange(code: "C", codeVerifier: "V")
        }
    }
}

@Suite struct Auth0SettingsTests {
    static let good = [
        "AUTH0_DOMAIN": "tenant.example.com", "AUTH0_CLIENT_ID": "c", "AUTH0_CLIENT_SECRET": "s",
        "AUTH0_SECRET": String(repeating: "x", count: 32), "APP_BASE_URL": "https://demo.example.com/",
    ]

    @Test func readsHostAsHTTPSAndDefaults() throws {
        let settings = try Auth0Settings(environment: Self.good)
        #expect(settings.issuer == "https://tenant.example.com/")
        #expect(settings.audience == "https://tenant.example.com/api/v2/")
        #expect(settings.baseURL == "https://demo.example.com")
        #expect(settings.callbackURL == "https://demo.example.com/callback")
        #expect(settings.scope == "openid profile email read:current_user update:current_user_metadata offline_access")
        #expect(settings.secureCookies)
    }

    @Test func reportsEveryProblemAtOnceNamingTheSetting() {
        let bad = [
            "AUTH0_DOMAIN": "http://tenant.example.com", "AUTH0_SECRET": "short,\(String(repeating: "y", count: 40))",
            "APP_BASE_URL": "http://demo.example.com", "AUTH0_LOGOUT": "maybe",
        ]
        do {
            _ = try Auth0Settings(environment: bad)
            Issue.record("accepted bad settings")
        } catch let problems as SettingsProblems {
            let names = problems.lines.map { String($0.prefix { $0 != ":" }) }
            #expect(
                names == [
                    "AUTH0_DOMAIN", "AUTH0_CLIENT_ID", "AUTH0_CLIENT_SECRET", "AUTH0_SECRET", "APP_BASE_URL",
                    "AUTH0_LOGOUT",
                ])
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func httpIsAcceptedOnlyForLoopback() throws {
        var env = Self.good
        env["AUTH0_DOMAIN"] = "http://127.0.0.1:8081"
        env["APP_BASE_URL"] = "http://127.0.0.1:8080"
        let settings = try Auth0Settings(environment: env)
        #expect(settings.issuer == "http://127.0.0.1:8081/")
        #expect(!settings.secureCookies)
    }

    @Test func secretsMayComeFromFilesAndRotate() throws {
        let path = NSTemporaryDirectory() + "secret-\(UUID().uuidString)"
        try "\(String(repeating: "n", count: 32)),\(String(repeating: "o", count: 32))\n".write(
            toFile: path, atomically: true, encoding: .utf8)
        var env = Self.good
        env["AUTH0_SECRET"] = nil
        env["AUTH0_SECRET_FILE"] = path
        #expect(try Auth0Settings(environment: env).cookieSecrets.count == 2)
        env["AUTH0_SECRET_FILE"] = "/nonexistent/secret"
        #expect(throws: SettingsProblems.self) { try Auth0Settings(environment: env) }
    }
}
