import Auth0Web
import MetadataDemoApp
import Testing
import Web

@Suite struct LoginFailurePageTests {
    private func page(_ error: AuthError) throws -> (Int, String) {
        let pages = try Pages(library: TemplateLibrary(directory: MetadataDemoTests.templatesDirectory))
        let response = pages.page(for: error)
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

    /// Issue 50, item 2: the provider is named on the pages of its failures (Auth0 only when it is
    /// Auth0), and a refused start of a login does not tell the person to wait.
    @Test(arguments: [("Auth0", "Auth0 did not accept"), ("sso.example.com", "sso.example.com did not accept")])
    func aRefusedStartNamesTheProviderAndDoesNotSayWait(provider: String, says: String) throws {
        let pages = try Pages(
            library: TemplateLibrary(directory: MetadataDemoTests.templatesDirectory), provider: provider)
        let response = pages.page(for: AuthError(.authorizationPushFailed, "400 invalid_request"))
        let body = String(decoding: response.body, as: UTF8.self)
        #expect(response.status == 502)
        #expect(body.contains("Login could not start") && body.contains(says), "\(body)")
        #expect(!body.contains("try again later") && !body.contains("{provider}"))
        for error in [AuthError(.tenantUnreachable), AuthError(.tenantUnavailable), AuthError(.codeExchangeFailed)] {
            let page = String(decoding: pages.page(for: error).body, as: UTF8.self)
            #expect(page.contains(provider) && !page.contains("{provider}"), "\(error)")
            #expect(provider == "Auth0" || !page.contains("Auth0"), "\(error): \(page)")
        }
    }
}
