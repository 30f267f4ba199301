import Auth0Web
import Testing
import Web

@Suite struct SessionCookiesTests {
    let time = ManualClock()

    static func session(affirmation: String = "Believe in yourself!", createdAt: Int64 = 1_700_000_000) -> Session {
        Session(
            profile: .init(
                sub: "auth0|123", name: "Skippy", email: "skippy@example.com", emailVerified: true,
                picture: "https://example.com/p.png", updatedAt: "2026-01-01T00:00:00.000Z"),
            accessToken: String(repeating: "t", count: 900), accessTokenExpiresAt: 1_700_086_400,
            refreshToken: "v1.refresh", tenantSessionID: "sid-1", csrfToken: "csrf-token",
            metadata: MetadataSnapshot(
                affirmation: affirmation, announcement: Announcement(text: "Tap", url: "https://example.com")),
            flash: "Saved", createdAt: createdAt)
    }

    private func jar(_ cookies: [SetCookie]) -> Cookies {
        Cookies(header: cookies.filter { $0.maxAge != 0 }.map { "\($0.name)=\($0.value)" }.joined(separator: "; "))
    }

    @Test func smallSessionIsOneCookieAndRoundTrips() throws {
        let store = try SessionCookies(secure: false, secrets: [String(repeating: "s", count: 32)], clock: time.clock)
        let cookies = try store.store(Self.session(), replacing: [])
        #expect(cookies.map(\.name) == ["mds"])
        #expect(cookies[0].maxAge == 86_400)
        #expect(store.load(from: jar(cookies)).session == Self.session())
    }

    @Test(arguments: ["Glaubé an dich!", "12345678é", "Ünïcödé 🦘 affirmations", "plain ascii, longer than eight"])
    func textBeyondASCIIRoundTripsExactly(affirmation: String) throws {
        let store = try SessionCookies(secure: false, secrets: [String(repeating: "s", count: 32)], clock: time.clock)
        let session = Self.session(affirmation: affirmation)
        let loaded = store.load(from: jar(try store.store(session, replacing: [])))
        #expect(loaded.session?.metadata.affirmation == affirmation)
        #expect(loaded.session == session)
    }

    @Test func largeSessionIsChunkedAndStaleChunksCleared() throws {
        let store = try SessionCookies(secure: true, secrets: [String(repeating: "s", count: 32)], clock: time.clock)
        let big = Self.session(affirmation: String(repeating: "é", count: 1500))
        let cookies = try store.store(big, replacing: [])
        #expect(cookies.map(\.name) == ["__Host-mds.0", "__Host-mds.1"])
        #expect(cookies.allSatisfy { $0.value.utf8.count <= SessionCookies.chunkSize && $0.secure })
        #expect(store.load(from: jar(cookies)).session == big)
        // Back to a small session: the chunks are cleared.
        let small = try store.store(Self.session(), replacing: ["__Host-mds.0", "__Host-mds.1"])
        #expect(small.map(\.name) == ["__Host-mds", "__Host-mds.0", "__Host-mds.1"])
        #expect(small.filter { $0.maxAge == 0 }.map(\.name) == ["__Host-mds.0", "__Host-mds.1"])
    }

    @Test func oversizedSessionIsRefused() throws {
        let store = try SessionCookies(secure: false, secrets: [String(repeating: "s", count: 32)], clock: time.clock)
        let huge = Self.session(affirmation: String(repeating: "x", count: 20_000))
        #expect(throws: SessionTooLarge.self) { try store.store(huge, replacing: []) }
    }

    @Test func duplicatedOrMissingChunksAreLoggedOut() throws {
        let store = try SessionCookies(secure: false, secrets: [String(repeating: "s", count: 32)], clock: time.clock)
        let cookies = try store.store(Self.session(), replacing: [])
        let value = cookies[0].value
        #expect(store.load(from: Cookies(header: "mds=\(value); mds=\(value)")).session == nil)
        let chunked = try store.store(Self.session(affirmation: String(repeating: "y", count: 3000)), replacing: [])
        #expect(store.load(from: Cookies(header: "mds.1=\(chunked[1].value)")).session == nil)
    }

    @Test func rollingAndAbsoluteLifetimesEndTheSession() throws {
        let store = try SessionCookies(
            secure: false, secrets: [String(repeating: "s", count: 32)], clock: time.clock, rollingLifetime: 3600,
            absoluteLifetime: 7200)
        var cookies = try store.store(Self.session(), replacing: [])
        time.advance(3000)
        var loaded = store.load(from: jar(cookies))
        #expect(loaded.session != nil)
        #expect(store.needsTouch(loaded))
        cookies = try store.store(loaded.session!, replacing: loaded.sentNames)  // rolled
        time.advance(3000)  // 6000 s after login, 3000 s after the roll
        loaded = store.load(from: jar(cookies))
        #expect(loaded.session != nil)
        cookies = try store.store(loaded.session!, replacing: loaded.sentNames)
        #expect(cookies[0].maxAge == 1200)  // capped by the absolute lifetime
        time.advance(1300)
        #expect(store.load(from: jar(cookies)).session == nil)
    }

    @Test func idleSessionExpires() throws {
        let store = try SessionCookies(
            secure: false, secrets: [String(repeating: "s", count: 32)], clock: time.clock, rollingLifetime: 3600)
        let cookies = try store.store(Self.session(), replacing: [])
        time.advance(3601)
        #expect(store.load(from: jar(cookies)).session == nil)
    }
}
