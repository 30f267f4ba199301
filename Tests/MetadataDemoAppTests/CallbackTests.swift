import Auth0Web
import MetadataDemoApp
import TestSupport
import Testing
import Web

@Suite struct CallbackTests {
    private func app(http: ScriptedHTTPClient = ScriptedHTTPClient()) throws -> MetadataDemo {
        let pages = try LocalizedPages(directory: MetadataDemoTests.templatesDirectory)
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
