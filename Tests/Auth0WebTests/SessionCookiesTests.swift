import Auth0Web
import TestSupport
import Testing
import Web

@Suite struct SessionCookiesTests {
    let time = ManualClock()

    static func session(affirmation: String = "Believe in yourself!", createdAt: Int64 = 1_700_000_000) -> Session {
        Session(
            profile: .init(
                sub: "auth0|123", name: "Skippy", email: "skippy@example.com", emailVerified: true,
                picture: "https://example.com/p.png", updatedAt: "2026-01-01T00:00:00.000Z"),
            accessToken: AccessToken(value: String(repeating: "t", count: 900), expiresAt: 1_700_086_400),
            refreshToken: "v1.refresh", tenantSessionID: "sid-1", csrfToken: "csrf-token",
            metadata: MetadataSnapshot(
                affirmation: affirmation, announcement: Announcement(text: "Tap", url: "https://example.com")),
            createdAt: createdAt)
    }

    /// The Cookie header a browser sends to `path` after receiving `cookies`.
    private func jar(_ cookies: [SetCookie], path: String = "/") -> Cookies {
        Cookies(
            header: cookies.filter { $0.maxAge != 0 && path.hasPrefix($0.path) }.map { "\($0.name)=\($0.value)" }
                .joined(separator: "; "))
    }

    private func store(secure: Bool = false) throws -> SessionCookies {
        try SessionCookies(
            secure: secure, secrets: [String(repeating: "s", count: 32)], clock: time.clock,
            accessTokenPath: "/affirmation")
    }

    /// The session as a page view sees it: everything but the access token.
    private static func withoutToken(_ session: Session) -> Session {
        var session = session
        session.accessToken = nil
        return session
    }

    @Test func pageViewsCarryTheSessionAndOnlyTheAffirmationRouteItsAccessToken() throws {
        let store = try store()
        let cookies = try store.store(Self.session())
        #expect(cookies.map(\.name) == ["mds", "mda"])
        #expect(cookies.map(\.path) == ["/", "/affirmation"])
        #expect(cookies[0].maxAge == 86_400)
        #expect(cookies[1].maxAge == 86_400)  // the token's own life, within the session's
        #expect(cookies[0].value.utf8.count < 700)  // the 900-byte token is not in it
        #expect(store.load(from: jar(cookies)).session == Self.withoutToken(Self.session()))
        #expect(store.load(from: jar(cookies), includingAccessToken: true).session?.accessToken == nil)
        let atSave = store.load(from: jar(cookies, path: "/affirmation"), includingAccessToken: true)
        #expect(atSave.session == Self.session())
        #expect(atSave.sentAccessTokenNames == ["mda"])
    }

    @Test func httpsNamesArePrefixedForTheirPaths() throws {
        let cookies = try store(secure: true).store(Self.session())
        #expect(cookies.map(\.name) == ["__Host-mds", "__Secure-mda"])
        #expect(cookies.allSatisfy { $0.secure && $0.httpOnly })
        #expect(cookies[1].headerValue.contains("; Path=/affirmation;"))
    }

    @Test func anAccessTokenOpensOnlyWithItsOwnSession() throws {
        let store = try store()
        let mine = try store.store(Self.session())
        var other = Self.session()
        other.profile.sub = "auth0|456"
        let theirs = try store.store(other)
        // Another person's token, or one from an earlier login of the same person, is not used.
        var loaded = store.load(
            from: Cookies(header: "mds=\(mine[0].value); mda=\(theirs[1].value)"), includingAccessToken: true)
        #expect(loaded.session?.profile.sub == "auth0|123")
        #expect(loaded.session?.accessToken == nil)
        let earlier = try store.store(Self.session(createdAt: 1_699_990_000))
        loaded = store.load(
            from: Cookies(header: "mds=\(mine[0].value); mda=\(earlier[1].value)"), includingAccessToken: true)
        #expect(loaded.session?.accessToken == nil)
        // A session value under the token's name does not open either (separate keys).
        loaded = store.load(
            from: Cookies(header: "mds=\(mine[0].value); mda=\(mine[0].value)"), includingAccessToken: true)
        #expect(loaded.session != nil && loaded.session?.accessToken == nil)
        // Tampered: the session still opens, without a token. A middle character is changed: the
        // last one may carry only base64's unused bits, and changing those alters nothing.
        var characters = Array(mine[1].value)
        let middle = characters.count / 2
        characters[middle] = characters[middle] == "A" ? "B" : "A"
        let flipped = String(characters)
        loaded = store.load(from: Cookies(header: "mds=\(mine[0].value); mda=\(flipped)"), includingAccessToken: true)
        #expect(loaded.session != nil && loaded.session?.accessToken == nil)
    }

    @Test func extendingASessionWithoutItsTokenLeavesTheTokenCookieAlone() throws {
        let store = try store()
        let loaded = store.load(from: jar(try store.store(Self.session())))
        let rewritten = try store.store(loaded.session!, replacing: loaded)
        #expect(rewritten.map(\.name) == ["mds"])
    }

    @Test func aTokenStoredOutsideItsPathClearsWhateverPartsTheBrowserMayHold() throws {
        // At login the browser does not show /affirmation's cookies: an older chunked token may be there.
        let store = try store()
        let loaded = store.load(from: jar(try store.store(Self.session())))
        #expect(loaded.sentAccessTokenNames == nil)
        let cookies = try store.store(Self.session(), replacing: loaded)
        #expect(cookies.filter { $0.maxAge != 0 }.map(\.name) == ["mds", "mda"])
        #expect(cookies.filter { $0.maxAge == 0 }.map(\.name) == ["mda.0", "mda.1", "mda.2", "mda.3"])
    }

    @Test func anExpiredTokenIsNotStored() throws {
        let store = try store()
        var session = Self.session()
        session.accessToken?.expiresAt = Int64(time.clock.now()) - 1
        let sent = store.load(
            from: jar(try store.store(Self.session()), path: "/affirmation"), includingAccessToken: true)
        let cookies = try store.store(session, replacing: sent)
        #expect(cookies.map(\.name) == ["mds", "mda"])
        #expect(cookies[1].maxAge == 0 && cookies[1].path == "/affirmation")
    }

    @Test func clearingForgetsTheSessionAndEveryPartOfTheToken() throws {
        let store = try store()
        let loaded = store.load(from: jar(try store.store(Self.session())))
        let cleared = store.clear(loaded)
        #expect(Set(cleared.map(\.name)).isSuperset(of: ["mds", "mda"]))
        #expect(cleared.allSatisfy { $0.maxAge == 0 })
        #expect(cleared.filter { $0.path == "/" }.map(\.name) == ["mds"])
        #expect(
            cleared.filter { $0.path == "/affirmation" }.map(\.name) == ["mda", "mda.0", "mda.1", "mda.2", "mda.3"])
    }

    @Test(arguments: ["Glaubé an dich!", "12345678é", "Ünïcödé 🦘 affirmations", "plain ascii, longer than eight"])
    func textBeyondASCIIRoundTripsExactly(affirmation: String) throws {
        let store = try store()
        let session = Self.session(affirmation: affirmation)
        let loaded = store.load(from: jar(try store.store(session), path: "/affirmation"), includingAccessToken: true)
        #expect(loaded.session.map { String($0.metadata.affirmation) } == affirmation)
        #expect(loaded.session == session)
    }

    @Test func largeSessionIsChunkedAndStaleChunksCleared() throws {
        let store = try store(secure: true)
        let big = Self.session(affirmation: String(repeating: "é", count: 1500))
        let cookies = try store.store(big)
        #expect(cookies.map(\.name) == ["__Host-mds.0", "__Host-mds.1", "__Secure-mda"])
        #expect(cookies.allSatisfy { $0.value.utf8.count <= SessionCookies.chunkSize && $0.secure })
        #expect(store.load(from: jar(cookies)).session == Self.withoutToken(big))
        // Back to a small session: the chunks are cleared.
        let sent = store.load(from: jar(cookies, path: "/affirmation"), includingAccessToken: true)
        let small = try store.store(Self.session(), replacing: sent)
        #expect(small.map(\.name) == ["__Host-mds", "__Host-mds.0", "__Host-mds.1", "__Secure-mda"])
        #expect(small.filter { $0.maxAge == 0 }.map(\.name) == ["__Host-mds.0", "__Host-mds.1"])
    }

    /// Review 3, item 5: 500 cookie names planted under the session's (`mds.x`, by a page of the
    /// same site) each got a clearing `Set-Cookie`, and nginx refused the answer's head. Only
    /// the session's own names count, each once.
    @Test func plantedNamesLikeTheSessionsAreNotOursToClear() throws {
        let store = try store()
        let planted = (0..<500).map { "mds.x\($0)=1; mda.\($0 + 4)=1" }.joined(separator: "; ")
        let session = jar(try store.store(Self.session()), path: "/affirmation")
        let header =
            planted + "; mds.0=stale; mds.0=again; "
            + session.pairs.map { "\($0.name)=\($0.value)" }
            .joined(separator: "; ")
        let loaded = store.load(from: Cookies(header: header), includingAccessToken: true)
        #expect(loaded.session != nil, "a planted name does not spoil the session")
        #expect(loaded.sentNames == ["mds.0", "mds"])
        let written = try store.store(Self.session(), replacing: loaded)
        #expect(written.count <= 7, "\(written.count) Set-Cookie lines")
        #expect(store.clear(loaded).count <= 7)
    }

    @Test func largeAccessTokenIsChunkedToo() throws {
        let store = try store()
        var session = Self.session()
        session.accessToken?.value = String(repeating: "t", count: 5000)
        let cookies = try store.store(session)
        #expect(cookies.map(\.name) == ["mds", "mda.0", "mda.1"])
        let loaded = store.load(from: jar(cookies, path: "/affirmation"), includingAccessToken: true)
        #expect(loaded.session?.accessToken == session.accessToken)
    }

    @Test func oversizedSessionIsRefused() throws {
        let huge = Self.session(affirmation: String(repeating: "x", count: 20_000))
        #expect(throws: SessionTooLarge.self) { try store().store(huge) }
    }

    @Test func duplicatedOrMissingChunksAreLoggedOut() throws {
        let store = try store()
        let cookies = try store.store(Self.session())
        let value = cookies[0].value
        #expect(store.load(from: Cookies(header: "mds=\(value); mds=\(value)")).session == nil)
        let chunked = try store.store(Self.session(affirmation: String(repeating: "y", count: 3000)))
        #expect(store.load(from: Cookies(header: "mds.1=\(chunked[1].value)")).session == nil)
    }

    @Test func rollingAndAbsoluteLifetimesEndTheSession() throws {
        let store = try SessionCookies(
            secure: false, secrets: [String(repeating: "s", count: 32)], clock: time.clock,
            accessTokenPath: "/affirmation", rollingLifetime: 3600,
            absoluteLifetime: 7200)
        var cookies = try store.store(Self.session())
        time.advance(3000)
        var loaded = store.load(from: jar(cookies))
        #expect(loaded.session != nil)
        #expect(store.needsTouch(issuedAt: loaded.issuedAt))
        cookies = try store.store(loaded.session!, replacing: loaded)  // rolled
        time.advance(3000)  // 6000 s after login, 3000 s after the roll
        loaded = store.load(from: jar(cookies))
        #expect(loaded.session != nil)
        cookies = try store.store(loaded.session!, replacing: loaded)
        #expect(cookies[0].maxAge == 1200)  // capped by the absolute lifetime
        time.advance(1300)
        #expect(store.load(from: jar(cookies)).session == nil)
    }

    @Test func idleSessionExpires() throws {
        let store = try SessionCookies(
            secure: false, secrets: [String(repeating: "s", count: 32)], clock: time.clock,
            accessTokenPath: "/affirmation", rollingLifetime: 3600)
        let cookies = try store.store(Self.session())
        time.advance(3601)
        #expect(store.load(from: jar(cookies)).session == nil)
    }

    // Opening a cookie is remembered per thread (`OpenedSessions`); what it gives must stay
    // what opening gives.

    @Test func aSessionOpenedBeforeStillExpiresOnTime() throws {
        let store = try SessionCookies(
            secure: false, secrets: [String(repeating: "s", count: 32)], clock: time.clock,
            accessTokenPath: "/affirmation", rollingLifetime: 3600)
        let cookies = try store.store(Self.session())
        #expect(store.load(from: jar(cookies)).session == Self.withoutToken(Self.session()))
        time.advance(3599)
        #expect(store.load(from: jar(cookies)).session == Self.withoutToken(Self.session()))
        time.advance(2)
        #expect(store.load(from: jar(cookies)).session == nil)
        #expect(store.load(from: jar(cookies)).session == nil)
    }

    @Test func onlyTheVeryTextThatOpenedFindsItsSession() throws {
        let store = try store()
        let value = try store.store(Self.session())[0].value
        #expect(store.load(from: Cookies(header: "mds=\(value)")).session != nil)
        // The same last eight characters (the key), another text before them.
        var altered = Array(value.utf8)
        altered[40] = altered[40] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        let forged = String(decoding: altered, as: UTF8.self)
        #expect(store.load(from: Cookies(header: "mds=\(forged)")).session == nil)
        #expect(store.load(from: Cookies(header: "mds=\(value.suffix(8))")).session == nil)
        #expect(store.load(from: Cookies(header: "mds=x\(value)")).session == nil)
        #expect(store.load(from: Cookies(header: "mds=\(value)")).session != nil)
    }

    /// What an anonymous request can make a thread keep: nothing. Only a cookie that opened is
    /// kept, so forged cookies aimed at a person's slot (the same last eight characters) neither
    /// open nor take the slot from the person's opening; each is refused as the first was.
    @Test func forgedCookiesInAPersonsSlotAreNeitherKeptNorServed() throws {
        let store = try store()
        let value = try store.store(Self.session())[0].value
        #expect(store.load(from: Cookies(header: "mds=\(value)")).session != nil)
        var bytes = Array(value.utf8)
        for round in 0..<300 {
            let at = 10 + round % (bytes.count - 20)
            bytes[at] = bytes[at] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
            let forged = String(decoding: bytes, as: UTF8.self)
            #expect(store.load(from: Cookies(header: "mds=\(forged)")).session == nil)
            #expect(store.load(from: Cookies(header: "mds=\(value)")).session == Self.withoutToken(Self.session()))
        }
    }

    @Test func aCookieOpenedUnderOneSecretDoesNotOpenUnderAnother() throws {
        let first = try store()
        let value = try first.store(Self.session())[0].value
        #expect(first.load(from: Cookies(header: "mds=\(value)")).session != nil)
        let other = try SessionCookies(
            secure: false, secrets: [String(repeating: "o", count: 32)], clock: time.clock,
            accessTokenPath: "/affirmation")
        #expect(other.load(from: Cookies(header: "mds=\(value)")).session == nil)
    }

    @Test func pastWhatAThreadKeepsEveryCookieStillOpensToItsOwnSession() throws {
        let store = try store()
        let count = OpenedSessions.limit + 40
        let values = try (0..<count).map { try store.store(Self.session(affirmation: "number \($0)"))[0].value }
        for _ in 0..<2 {
            for (index, value) in values.enumerated() {
                #expect(
                    store.load(from: Cookies(header: "mds=\(value)")).session?.metadata.affirmation == "number \(index)"
                )
            }
        }
    }
}
