import Auth0Web
import Foundation
import MetadataDemoApp
import SQLiteStore
import Web

// Micro-benchmarks, in one process on one thread: seal and open a realistic session, as every
// logged-in page view opens its session cookie (and some seal one) and a save opens it with its
// access-token cookie, and answer a logged-in `GET /` the way the worker does once it has read
// the request's records (cookie opened, page rendered, headers added, request counted): as a
// page thread answers it, and as the waiting pool would. Prints microseconds per operation;
// used by `make bench`, run from the repository root (it reads Templates/ and Public/).
// The product's settings in every bench: Auth0 at a made-up tenant, a secret-authenticated client.
let benchSettings = try RelyingPartySettings(environment: [
    "AUTH0_DOMAIN": "tenant.example.com", "AUTH0_CLIENT_ID": "bench", "AUTH0_CLIENT_SECRET": "bench-secret",
    "AUTH0_SECRET": "3f9c1a7be04d5628c1f0e9b7a4d23c856e1fb07a9d3c42e8b5f6019a7c3e2d4b",
    "APP_BASE_URL": "https://demo.example.com",
])
let ledgerFolder = NSTemporaryDirectory() + "session-bench-\(getpid())"
defer { try? FileManager.default.removeItem(atPath: ledgerFolder) }
if CommandLine.arguments.dropFirst().first == "logout-tokens" {
    let services = try AppServices(
        settings: benchSettings, endpoints: .documented(issuer: "https://tenant.example.com/"), http: BenchJWKS(),
        store: try SQLiteSharedStore(path: ledgerFolder + "/ledger.sqlite3"))
    let pages = try LocalizedPages(directory: "Templates", assets: StaticAssets(directory: "Public"))
    let app = MetadataDemo(pages: pages, services: services, log: Log(minimum: .error))
    logoutTokensBench(
        services: services, app: app, iterations: Int(CommandLine.arguments.dropFirst(2).first ?? "") ?? 200)
    try? FileManager.default.removeItem(atPath: ledgerFolder)
    exit(0)
}
if CommandLine.arguments.dropFirst().first == "ledger-start" {
    try ledgerStartBench(entries: Int(CommandLine.arguments.dropFirst(2).first ?? "") ?? 200_000)
    exit(0)
}
let iterations = Int(CommandLine.arguments.dropFirst().first ?? "") ?? 20_000
let environment = ProcessInfo.processInfo.environment
// SESSION_BENCH_PAGE_ONLY=1 runs the cookie loops once (to profile the page alone);
// SESSION_BENCH_LOG_LEVEL=info adds the page's log line (written to standard error).
let cookieIterations = environment["SESSION_BENCH_PAGE_ONLY"] == "1" ? 1 : iterations
let pageLogLevel = Log.Level(name: environment["SESSION_BENCH_LOG_LEVEL"] ?? "warning") ?? .warning
let clock = Clock.system
let store = try SessionCookies(
    secure: true, secrets: [String(repeating: "s", count: 64)], clock: clock, accessTokenPath: "/affirmation")
let now = Int64(clock.now())
let session = Session(
    profile: .init(
        sub: "auth0|6489e0a1c2b3d4e5f6a7b8ca", name: "skippy@example.com", email: "skippy@example.com",
        emailVerified: true, picture: "https://s.gravatar.com/avatar/0123456789abcdef0123456789abcdef?s=480",
        updatedAt: "2026-11-22T00:00:00.000Z"),
    accessToken: AccessToken(value: String(repeating: "a", count: 1100), expiresAt: now + 86_400),
    refreshToken: "v1." + String(repeating: "r", count: 43), tenantSessionID: "sid",
    csrfToken: String(repeating: "c", count: 43),
    metadata: MetadataSnapshot(
        affirmation: "Believe in yourself!",
        announcement: Announcement(
            text: "Tap here for an important announcement", url: "https://www.youtube.com/watch?v=DLzxrzFCyOs")),
    createdAt: now)

/// The Cookie header a browser sends to `path`: only the cookies whose `Path` covers it.
func cookieHeader(_ cookies: [SetCookie], for path: String) -> String {
    cookies.filter { path.hasPrefix($0.path) }.map { "\($0.name)=\($0.value)" }.joined(separator: "; ")
}

let cookies = try store.store(session)
let pageView = Cookies(header: cookieHeader(cookies, for: "/"))
let save = Cookies(header: cookieHeader(cookies, for: "/affirmation"))
var opened = 0
let openStart = ContinuousClock.now
for _ in 0..<cookieIterations where store.load(from: pageView).session != nil { opened += 1 }
let openTime = ContinuousClock.now - openStart
let openBothStart = ContinuousClock.now
for _ in 0..<cookieIterations where store.load(from: save, includingAccessToken: true).session?.accessToken != nil {
    opened += 1
}
let openBothTime = ContinuousClock.now - openBothStart
let sealStart = ContinuousClock.now
for _ in 0..<cookieIterations { _ = try store.store(session) }
let sealTime = ContinuousClock.now - sealStart
precondition(opened == 2 * cookieIterations, "a session failed to open")

// The logged-in page, through the product's responder with its real templates, and a session
// ledger (SQLite, as `make run` has it) remembering a thousand ended logins and people: every
// page view looks its session up in the ledger's in-memory copy.
let services = try AppServices(
    settings: benchSettings,
    endpoints: .documented(issuer: "https://tenant.example.com/"),
    http: RefusingHTTPClient(), store: try SQLiteSharedStore(path: ledgerFolder + "/ledger.sqlite3"))
for index in 0..<1000 {
    var other = session
    other.csrfToken = "ended-\(index)"
    services.ledger.endLogin(other)
    services.ledger.endSessions(of: "auth0|ended-\(index)", issuedBefore: now)
}
let pages = try LocalizedPages(directory: "Templates", assets: StaticAssets(directory: "Public"))
let app = MetadataDemo(pages: pages, services: services, log: Log(minimum: pageLogLevel))
let pageRequest = Request(
    method: "GET", path: "/",
    headers: [
        "host": "demo.example.com", "accept": "text/html", "user-agent": "session-bench",
        "cookie": cookieHeader(try services.auth0.sessions.store(session), for: "/"),
    ])
// As the worker answers it: on a page thread, where it may not wait (a logged-in page waits for
// nothing unless its session is due for revalidation).
precondition(
    String(decoding: app.respondWithoutWaiting(to: pageRequest)?.body ?? [], as: UTF8.self)
        .contains("Believe in yourself!"), "the page was not answered without waiting")
let pageStart = ContinuousClock.now
for _ in 0..<iterations { _ = app.respondWithoutWaiting(to: pageRequest) }
let pageTime = ContinuousClock.now - pageStart
// Where waiting is allowed (the waiting pool's way): the same page in a scope that counts
// its outbound calls.
precondition(String(decoding: app.respond(to: pageRequest).body, as: UTF8.self).contains("Believe in yourself!"))
let waitingStart = ContinuousClock.now
for _ in 0..<cookieIterations { _ = app.respond(to: pageRequest) }
let waitingTime = ContinuousClock.now - waitingStart

/// Page views never call Auth0; a call here would be a bug, so it fails loudly.
struct RefusingHTTPClient: HTTPClient {
    func send(_ request: HTTPClientRequest) throws -> HTTPClientResponse {
        fatalError("a logged-in page view called \(request.url)")
    }
}

func micros(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12
}
let open = micros(openTime) / Double(iterations)
let openBoth = micros(openBothTime) / Double(iterations)
let seal = micros(sealTime) / Double(iterations)
let page = micros(pageTime) / Double(iterations)
let pageWhereItMayWait = micros(waitingTime) / Double(cookieIterations)
print(
    String(
        format: "cookie bytes %d (page view) + %d (access token, sent to saves only); open %.2f us "
            + "(with the access token %.2f us), seal both %.2f us, seal+open %.2f us; logged-in page in-process %.2f us "
            + "(as a page thread answers it; %.2f us where it may wait, its outbound calls counted)",
        cookies[0].value.utf8.count, cookies[1].value.utf8.count, open, openBoth, seal, openBoth + seal, page,
        pageWhereItMayWait))
