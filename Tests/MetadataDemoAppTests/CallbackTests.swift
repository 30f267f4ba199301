import Auth0Web
import MetadataDemoApp
import Testing
import Web

@Suite struct CallbackTests {
    private func app(http: ScriptedHTTPClient = ScriptedHTTPClient()) throws -> MetadataDemo {
        let pages = try Pages(library: TemplateLibrary(directory: MetadataDemoTests.templatesDirectory))
        return MetadataDemo(pages: pages, services: try TestServices.make(http: http), log: Log(minimum: .error))
    }

    /// Starts a login and returns the state and the cookie header the browser would send back.
    private func startLogin(_ app: MetadataDemo) -> (state: String, cookie: String) {
        let response = app.respond(to: Request(method: "GET", path: "/login"))
        let location = response.header("Location") ?? ""
        let state =
            location.split(separator: "&").first { $0.hasPrefix("state=") }.map { String($0.dropFirst(6)) } ?? ""
        let cookie = response.headers.filter { $0.name == "Set-Cookie" }.map {
            String($0.value.split(separator: ";")[0])
        }.joined(separator: "; ")
        return (state, cookie)
    }

    @Test func tenantErrorWithKnownStateShowsCancelledPage() throws {
        let app = try app()
        let (state, cookie) = startLogin(app)
        let response = app.respond(
            to: Request(
                method: "GET", path: "/callback", query: "error=access_denied&state=\(state)",
                headers: ["cookie": cookie]))
        let body = String(decoding: response.body, as: UTF8.self)
        #expect(body.contains("Login cancelled"), "\(body)")
        #expect(response.status == 403)
    }
}

@Suite struct LoginFailurePageTests {
    private func page(_ error: AuthError) throws -> (Int, String) {
        let pages = try Pages(library: TemplateLibrary(directory: MetadataDemoTests.templatesDirectory))
        let response = pages.loginFailedPage(error)
        return (response.status, String(decoding: response.body, as: UTF8.self))
    }

    @Test(arguments: [
        (AuthError(.unknownState), 400, "Login expired"),
        (AuthError(.missingState), 400, "Login expired"),
        (AuthError(.tenantError, "access_denied"), 403, "Login cancelled"),
        (AuthError(.tenantError, "unauthorized"), 403, "Account blocked"),
        (AuthError(.tenantError, "login_required"), 401, "Login needed"),
        (AuthError(.tenantError, "<script>"), 400, "Login failed"),
        (AuthError(.codeExchangeFailed, "403 invalid_grant"), 400, "Auth0 did not accept this login"),
        (AuthError(.tenantUnreachable, "timeout"), 503, "Auth0 unreachable"),
        (AuthError(.badSignature), 400, "Login not verified"),
        (AuthError(.unsupportedAlgorithm, "none"), 400, "Login not verified"),
        (AuthError(.expired), 400, "Login not verified"),
    ])
    func eachFailureHasItsOwnPageWithLogIn(error: AuthError, status: Int, title: String) throws {
        let (code, body) = try page(error)
        #expect(code == status)
        #expect(body.contains(title))
        #expect(body.contains("href=\"/login\">Log in</a>"))
        #expect(!body.contains("<script>"))
    }
}

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
        let pages = try Pages(library: TemplateLibrary(directory: MetadataDemoTests.templatesDirectory))
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
