import Auth0Web
import Foundation
import MetadataDemoApp
import Testing
import Web

/// The product's responder with the real templates, no sockets.
@Suite struct MetadataDemoTests {
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    static let templatesDirectory = repositoryRoot + "/Templates"

    private func app() throws -> MetadataDemo {
        let pages = try LocalizedPages(directory: Self.templatesDirectory)
        return MetadataDemo(pages: pages, services: try TestServices.make(), log: Log(minimum: .error))
    }

    private func text(_ response: Response) -> String { String(decoding: response.body, as: UTF8.self) }

    @Test func firstVisitShowsTitleAndLogIn() throws {
        let response = try app().respond(to: Request(method: "GET", path: "/"))
        #expect(response.status == 200)
        #expect(text(response).contains("<h1 class=\"title\">Metadata demo</h1>"))
        #expect(text(response).contains(">Log in</a>"))
        #expect(response.header("Content-Security-Policy") != nil)
    }

    @Test func loggedOutPageSaysSo() throws {
        let response = try app().respond(to: Request(method: "GET", path: "/logged-out"))
        #expect(text(response).contains("You’re logged out."))
        #expect(text(response).contains(">Log in</a>"))
    }

    @Test func unknownPathIs404PageWithHeaders() throws {
        let response = try app().respond(to: Request(method: "GET", path: "/nope"))
        #expect(response.status == 404)
        #expect(text(response).contains("Page not found"))
        #expect(response.header("X-Content-Type-Options") == "nosniff")
    }

    @Test(arguments: [
        ("/mini/a?x=1&y=2", "/login?returnTo=%2Fmini%2Fa%3Fx%3D1%26y%3D2"),
        ("//evil.example/", "/login?returnTo=%2F"), ("https://evil.example/", "/login?returnTo=%2F"),
        (nil, "/login?returnTo=%2F"),
    ])
    func authCheckOffersALoginLinkBackToWhatWasAskedForOnThisSiteOnly(original: String?, login: String) throws {
        let headers: HeaderFields = original.map { ["x-original-uri": $0] } ?? [:]
        let response = try app().respond(to: Request(method: "GET", path: "/auth/check", headers: headers))
        #expect(response.status == 401)
        #expect(response.header("X-Auth-Login") == login)
    }

    @Test func wrongMethodIs405WithAllow() throws {
        let response = try app().respond(to: Request(method: "DELETE", path: "/"))
        #expect(response.status == 405)
        #expect(response.header("Allow") == "GET, HEAD")
    }

    @Test func bodyOverTheLimitIs413Page() throws {
        let response = try app().respond(to: Request(method: "POST", path: "/"), rejectedWith: .contentTooLarge)
        #expect(response.status == 413)
        #expect(text(response).contains("too large"))
    }

    @Test func everyTemplateLoads() throws {
        let library = try TemplateLibrary(directory: Self.templatesDirectory)
        #expect(library.names.contains("welcome"))
        _ = try Pages(library: library)
    }

    /// The mini apps' items are rendered before any page, from the profile's `miniApps` section:
    /// a template whose section is gone, or whose item names what an item does not have, stops
    /// start-up naming the file, where pages would have listed nothing or left a slot empty.
    @Test func aProfileWhoseMiniAppItemCannotBeRenderedAloneStopsStartUp() throws {
        let directory = Self.templatesDirectory
        let profile = try String(contentsOfFile: directory + "/profile.html", encoding: .utf8)
        var sources: [String: String] = [:]
        for name in try TemplateLibrary(directory: directory).names {
            sources[name] = try String(contentsOfFile: "\(directory)/\(name).html", encoding: .utf8)
        }
        let catalogue = try Catalogue(file: directory + "/i18n/en.json")
        for (changed, message) in [
            (
                profile.replacingOccurrences(of: "{{#miniApps}}", with: "{{#apps}}")
                    .replacingOccurrences(of: "{{/miniApps}}", with: "{{/apps}}"), "no {{#miniApps}} section"
            ),
            (profile.replacingOccurrences(of: "{{appTitle}}", with: "{{appTitle}} {{csrf}}"), "uses \"csrf\""),
        ] {
            sources["profile"] = changed
            let library = try TemplateLibrary(sources: sources, catalogue: catalogue)
            let error = try #require(throws: TemplateError.self) { try Pages(library: library) }
            #expect(error.file == "profile.html")
            #expect(error.message.contains(message), "\(error)")
        }
    }
}
