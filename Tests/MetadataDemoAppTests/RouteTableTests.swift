import Foundation
import Testing

@testable import MetadataDemoApp

/// Issue 51, item 6: what is said of the route table is derived from it, or held to it here.
@Suite struct RouteTableTests {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path

    /// Every `METHOD /path` in backticks of `text`.
    private func routes(in text: Substring) -> Set<String> {
        Set(
            text.split(separator: "`").enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
                .filter { $0.hasPrefix("GET /") || $0.hasPrefix("POST /") })
    }

    @Test func architecturesListsOfWaitingAndSessionRoutesAreTheTables() throws {
        let text = try String(contentsOfFile: Self.root + "/ARCHITECTURE.md", encoding: .utf8)
        let stage = try #require(text.range(of: "1. **Route**").map { text[$0.lowerBound...] })
        let waitsPart = try #require(stage.range(of: "`waits`").map { stage[$0.upperBound...] })
        let served = try #require(waitsPart.range(of: "`servesSession`"))
        let waitingSaid = routes(in: waitsPart[..<served.lowerBound])
        let servingSaid = routes(in: waitsPart[served.upperBound...].prefix { $0 != ")" })
        let routes = Routes(
            services: try TestServices.make(),
            pages: try LocalizedPages(directory: MetadataDemoTests.templatesDirectory))
        let table = Routes.table.map { (key: "\($0.method) \($0.path)", route: $0.route(routes)) }
        // GET /login waits only when logins push their request first (not these test settings).
        #expect(waitingSaid == Set(table.filter(\.route.waits).map(\.key)).union(["GET /login"]))
        #expect(servingSaid == Set(table.filter(\.route.servesSession).map(\.key)))
    }

    @Test func aMiniAppMayNotTakeAPathTheProductAnswersUnder() {
        for segment in ["auth", "login", "logout", "me", "sessions", "metrics", ".well-known", "static", "favicon.ico"]
        {
            #expect(MiniAppsReader.reservedSegments.contains(segment), "\(segment)")
        }
        for entry in Routes.table where entry.path != "/" {
            let first = String(entry.path.dropFirst().prefix { $0 != "/" })
            #expect(MiniAppsReader.reservedSegments.contains(first), "\(entry.path)")
        }
        #expect(!MiniAppsReader.reservedSegments.contains("announcements"))
    }
}
