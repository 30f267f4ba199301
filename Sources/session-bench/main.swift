import Auth0Web
import Foundation
import Web

// Micro-benchmark: seal and open a realistic session cookie, as every logged-in page view
// opens one (and some seal one). Prints microseconds per operation; used by `make bench`.
let iterations = Int(CommandLine.arguments.dropFirst().first ?? "") ?? 20_000
let clock = Clock.system
let store = try SessionCookies(secure: true, secrets: [String(repeating: "s", count: 64)], clock: clock)
let now = Int64(clock.now())
let session = Session(
    profile: .init(
        sub: "auth0|6489e0a1c2b3d4e5f6a7b8ca", name: "skippy@example.com", email: "skippy@example.com",
        emailVerified: true, picture: "https://s.gravatar.com/avatar/0123456789abcdef0123456789abcdef?s=480",
        updatedAt: "2026-11-22T00:00:00.000Z"),
    accessToken: String(repeating: "a", count: 1100), accessTokenExpiresAt: now + 86_400,
    refreshToken: "v1." + String(repeating: "r", count: 43), tenantSessionID: "sid",
    csrfToken: String(repeating: "c", count: 43),
    metadata: MetadataSnapshot(
        affirmation: "Believe in yourself!",
        announcement: Announcement(
            text: "Tap here for an important announcement", url: "https://www.youtube.com/watch?v=DLzxrzFCyOs")),
    createdAt: now)

let cookies = try store.store(session, replacing: [])
let header = Cookies(header: cookies.map { "\($0.name)=\($0.value)" }.joined(separator: "; "))
var opened = 0
let openStart = ContinuousClock.now
for _ in 0..<iterations where store.load(from: header).session != nil { opened += 1 }
let openTime = ContinuousClock.now - openStart
let sealStart = ContinuousClock.now
for _ in 0..<iterations { _ = try store.store(session, replacing: []) }
let sealTime = ContinuousClock.now - sealStart
precondition(opened == iterations, "a session failed to open")

func micros(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12
}
let open = micros(openTime) / Double(iterations)
let seal = micros(sealTime) / Double(iterations)
print(
    String(
        format: "cookie bytes %d, open %.2f us, seal %.2f us, seal+open %.2f us", cookies[0].value.utf8.count, open,
        seal, open + seal))
