import Auth0Web
import MetadataDemoApp
import TestSupport
import Testing
import Web

@Suite struct RefusedRefreshTokenTests {
    @Test func aRefusedRefreshTokenEndsTheSessionAndLogsInAgainKeepingTheText() throws {
        let tenant = ScriptedHTTPClient { request in
            #expect(request.url.hasSuffix("/oauth/token"))
            return HTTPClientResponse(
                status: 403,
                body: Array(#"{"error":"invalid_grant","error_description":"Unknown or invalid refresh token."}"#.utf8))
        }
        let clock = Clock { 1_700_000_000 }
        let services = try TestServices.make(http: tenant, clock: clock)
        let pages = try LocalizedPages(directory: MetadataDemoTests.templatesDirectory)
        let app = MetadataDemo(pages: pages, services: services, log: Log(minimum: .error))
        let session = Session(
            profile: .init(
                sub: "auth0|1", name: "N", email: "n@example.com", emailVerified: true, picture: "", updatedAt: ""),
            accessToken: AccessToken(value: "expiring", expiresAt: 1_700_000_010), refreshToken: "RT-old",
            tenantSessionID: nil, csrfToken: "csrf", createdAt: 1_699_990_000)
        let cookie = try services.sessions.store(session)[0]
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
        let found = services.transactions.find(state: state, in: Cookies(header: "__Host-mdtx.\(state)=\(value)"))
        #expect(found?.pendingAffirmation == "Keep me")
        #expect(tenant.sent.count == 1)  // the renewal only; no Management API call with a dead token
    }
}
