import Auth0Web
import MetadataDemoApp
import TestSupport
import Testing
import Web

/// The page thread's promise (`Responder.respondWithoutWaiting`), route by route: a route that
/// waits answers nil before reading anything of the request, and every other answers as
/// `respond(to:)` would, unless the session it serves is due for a check with the tenant.
@Suite struct PageThreadPromiseTests {
    let services: AppServices
    let app: MetadataDemo

    init() throws {
        services = try TestServices.make()
        let pages = try LocalizedPages(directory: MetadataDemoTests.templatesDirectory)
        app = MetadataDemo(pages: pages, services: services, log: Log(minimum: .error))
    }

    /// Every route with a query and a body that do not decode: reading either would answer 400.
    private func requests(cookie: String) -> [(path: String, waits: Bool, request: Request)] {
        app.routes.map { route in
            let request = Request(
                method: route.method, path: route.path, query: "returnTo=%zz&state=%zz",
                headers: ["cookie": cookie, "content-type": "application/x-www-form-urlencoded"],
                body: Array("csrf=%zz".utf8))
            return (route.path, route.waits, request)
        }
    }

    private func cookie(checkedSecondsAgo: Int64) throws -> String {
        let now = Int64(Clock.system.now())
        let session = Session(
            profile: .init(
                sub: "auth0|7", name: "Ada", email: "ada@example.org", emailVerified: true, picture: "",
                updatedAt: ""),
            accessToken: nil, refreshToken: "refresh-7", tenantSessionID: nil, csrfToken: "csrf-7",
            createdAt: now - checkedSecondsAgo, checkedAt: now - checkedSecondsAgo)
        return try services.auth0.sessions.store(session).map { "\($0.name)=\($0.value)" }.joined(separator: "; ")
    }

    @Test func theRoutesThatWaitAreTheOnesThatCallTheTenantOrTheStore() {
        let waiting = Set(app.routes.filter(\.waits).map { "\($0.method) \($0.path)" })
        #expect(
            waiting == [
                "GET /sessions", "POST /sessions/end", "POST /sessions/end-others", "GET /callback", "POST /logout",
                "POST /affirmation", "POST /backchannel-logout", "GET /frontchannel-logout",
            ])
        #expect(app.routes.count > waiting.count + 8)
    }

    @Test func aRouteThatWaitsAnswersNilAndEveryOtherAnswersAsRespondWould() throws {
        let cases = requests(cookie: try cookie(checkedSecondsAgo: 0))
        #expect(cases.count == app.routes.count)
        for (path, waits, request) in cases {
            let fast = app.respondWithoutWaiting(to: request)
            if waits {
                #expect(fast == nil, "\(request.method) \(path) answered on a page thread")
                continue
            }
            let answer = try #require(fast, "\(request.method) \(path) was not answered on a page thread")
            let waited = app.respond(to: request)
            #expect(answer.status == waited.status, "\(request.method) \(path)")
            #expect(names(answer) == names(waited), "\(request.method) \(path)")
            // Bodies that carry no per-answer randomness or counter are the same byte for byte.
            if path != "/metrics" { #expect(answer.body == waited.body, "\(request.method) \(path)") }
        }
    }

    /// A session due for its check with the tenant waits on the routes that serve it, and only there.
    @Test func aSessionDueForRevalidationWaitsOnlyWhereItIsServed() throws {
        let due = try cookie(checkedSecondsAgo: services.settings.sessions.revalidateSeconds + 1)
        let serving: Set = ["/", "/me", "/auth/check"]
        for (path, waits, request) in requests(cookie: due) where !waits {
            let answer = app.respondWithoutWaiting(to: request)
            #expect((answer == nil) == serving.contains(path), "\(request.method) \(path)")
        }
    }

    private func names(_ response: Response) -> [String] { response.headers.map { $0.name.lowercased() }.sorted() }
}
