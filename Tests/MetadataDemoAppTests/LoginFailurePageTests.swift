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
}
