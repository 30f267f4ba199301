import Auth0Web
import MetadataDemoApp
import TestSupport
import Testing
import Web

@Suite struct RefusedRefreshTokenTests {
    /// A tenant that refuses every refresh token, as Auth0 answers a revoked one.
    private static func refusingTenant() -> ScriptedHTTPClient {
        ScriptedHTTPClient { request in
            #expect(request.url.hasSuffix("/oauth/token"))
            return HTTPClientResponse(
                status: 403,
                body: Array(#"{"error":"invalid_grant","error_description":"Unknown or invalid refresh token."}"#.utf8))
        }
    }

    /// The product over `services`, and a session of person `auth0|1` with this access token.
    private static func app(_ services: AppServices) throws -> MetadataDemo {
        MetadataDemo(
            pages: try LocalizedPages(directory: MetadataDemoTests.templatesDirectory), services: services,
            log: Log(minimum: .error))
    }

    private static func session(_ token: AccessToken, refreshToken: String, csrf: String) -> Session {
        Session(
            profile: .init(
                sub: "auth0|1", name: "N", email: "n@example.com", emailVerified: true, picture: "", updatedAt: ""),
            accessToken: token, refreshToken: refreshToken, tenantSessionID: nil, csrfToken: csrf,
            createdAt: 1_699_990_000)
    }

    @Test func aRefusedRefreshTokenEndsTheSessionAndLogsInAgainKeepingTheText() throws {
        let tenant = Self.refusingTenant()
        let services = try TestServices.make(http: tenant, clock: Clock { 1_700_000_000 })
        let app = try Self.app(services)
        let session = Self.session(
            AccessToken(value: "expiring", expiresAt: 1_700_000_010), refreshToken: "RT-old", csrf: "csrf")
        let cookie = try services.auth0.sessions.store(session)[0]
        let response = app.respond(
            to: Request(
                method: "POST", path: "/affirmation",
                headers: [
                    "cookie": "\(cookie.name)=\(cookie.value)", "content-type": "application/x-www-form-urlencoded",
                    "origin": "https://demo.example.com",
                ], body: Array("csrf=csrf&action=save&affirmation=Keep+me".utf8)))
        #expect(response.status == 303)
        #expect(response.header("Location")?.hasPrefix("https://tenant.example.com/authorize?") == true)
        let setCookies = response.headers.filter { $0.name == "Set-Cookie" }.map(\.value)
        #expect(setCookies.contains { $0.hasPrefix("__Host-mds=;") && $0.contains("Max-Age=0") })
        let transaction = try #require(setCookies.first { $0.hasPrefix("__Host-mdtx.") })
        let state = String(transaction.prefix { $0 != "=" }.dropFirst("__Host-mdtx.".count))
        let value = String(transaction.split(separator: ";")[0].split(separator: "=", maxSplits: 1)[1])
        let found = services.auth0.transactions.find(state: state, in: Cookies(header: "__Host-mdtx.\(state)=\(value)"))
        #expect(found?.pendingAffirmation == "Keep me")
        #expect(tenant.sent.count == 1)  // the renewal only; no Management API call with a dead token
        // Issue 41: ended in the ledger too, so a copy of the cookie is refused on every worker.
        #expect(services.ledger.hasEnded(session))
    }

    /// Issue 41: a session that revalidation found ended (the tenant refused its refresh token)
    /// was ended in this browser only: a copy of the cookie kept opening pages and `/me` on
    /// another worker until its own revalidation. Now the ledger ends it everywhere at once.
    @Test func aSessionFoundEndedAtRevalidationIsEndedForEveryCopy() throws {
        let services = try TestServices.make(
            http: Self.refusingTenant(), clock: Clock { 1_700_000_000 }, extra: ["SESSION_REVALIDATE_SECONDS": "60"])
        let app = try Self.app(services)
        var session = Self.session(
            AccessToken(value: "valid", expiresAt: 1_700_086_400), refreshToken: "RT-revoked", csrf: "csrf-revalidated")
        session.checkedAt = 1_699_990_000  // due: checked long before the interval
        let cookie = try services.auth0.sessions.store(session)[0]
        let home = app.respond(
            to: Request(method: "GET", path: "/", headers: ["cookie": "\(cookie.name)=\(cookie.value)"]))
        #expect(home.status == 200 && !String(decoding: home.body, as: UTF8.self).contains("You’re logged in!"))
        #expect(services.ledger.hasEnded(session), "a copy of the cookie still opens pages elsewhere")
    }
}
