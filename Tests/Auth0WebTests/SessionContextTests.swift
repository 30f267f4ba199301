import Auth0Web
import TestSupport
import Testing
import Web

@Suite struct SessionContextTests {
    let time = ManualClock()
    let sessions: SessionCookies

    init() throws {
        sessions = try SessionCookies(
            secure: false, secrets: [String(repeating: "s", count: 32)], clock: time.clock,
            accessTokenPath: "/affirmation")
    }

    private func context(_ cookies: [SetCookie], path: String = "/") -> SessionContext {
        let header = cookies.filter { $0.maxAge != 0 }.map { "\($0.name)=\($0.value)" }.joined(separator: "; ")
        return SessionContext(cookies: Cookies(header: header), path: path, sessions: sessions)
    }

    private var stored: [SetCookie] {
        get throws { try sessions.store(SessionCookiesTests.session(createdAt: Int64(time.clock.now()))) }
    }

    @Test func aPageViewWritesNothingUntilATouchIsDue() throws {
        let cookies = try stored
        #expect(try context(cookies).setCookies().isEmpty)  // never opened
        let viewed = context(cookies)
        #expect(viewed.session?.profile.sub == "auth0|123")
        #expect(viewed.session?.accessToken == nil)  // page views never carry it
        #expect(try viewed.setCookies().isEmpty)
        time.advance(Double(sessions.touchInterval))
        let touched = context(cookies)
        _ = touched.session
        #expect(try touched.setCookies().map(\.name) == ["mds"])
    }

    /// A route that only reads the session reads the one the context opened, as often as it
    /// likes, and the context still decides the cookies (a touch that is due stores it; a
    /// tampered cookie, read as no session, is still cleared).
    @Test func aSessionReadIsTheOpenedOneAndStaysTheContexts() throws {
        let cookies = try stored
        time.advance(Double(sessions.touchInterval))
        let viewed = context(cookies)
        #expect(viewed.session?.profile.sub == "auth0|123")
        #expect(viewed.session?.profile.sub == "auth0|123")
        let written = try viewed.setCookies()
        #expect(written.map(\.name) == ["mds"])
        #expect(written.allSatisfy { $0.maxAge != 0 })

        var tampered = cookies
        tampered[0].value = String(tampered[0].value.reversed())
        let visitor = context(tampered)
        #expect(visitor.session == nil)
        #expect(try visitor.setCookies().contains { $0.name == "mds" && $0.maxAge == 0 })
    }

    /// What one anonymous request can make an answer write is decided from its Cookie header
    /// alone, and bounded by the names the session's cookies use: 2,000 foreign cookies write
    /// nothing, and a forged session cookie past the most ever opened (64 KB: refused before it is
    /// decoded or decrypted) adds only the clearing of the session's own names, each once.
    @Test func anAnonymousHeaderOfManyCookiesWritesAtMostTheSessionsOwnNames() throws {
        let foreign = (0..<2000).map { "x\($0)=1" }.joined(separator: "; ")
        let quiet = SessionContext(cookies: Cookies(header: foreign), path: "/", sessions: sessions)
        #expect(quiet.session == nil)
        #expect(try quiet.setCookies().isEmpty)
        let forged = foreign + "; mds=" + String(repeating: "A", count: 70_000) + "; mds=again"
        let context = SessionContext(cookies: Cookies(header: forged), path: "/", sessions: sessions)
        #expect(context.session == nil)
        let written = try context.setCookies()
        #expect(written.allSatisfy { $0.maxAge == 0 && !$0.name.hasPrefix("x") })
        #expect(written.filter { $0.name == "mds" }.count == 1)
        // The session's name, and the access token's five (its own and four chunks'), which a
        // request outside the token's path cannot see and so clears all of.
        #expect(written.count <= 6, "\(written.map(\.name))")
    }

    @Test func theAccessTokenIsOpenedOnlyOnItsPath() throws {
        let cookies = try stored
        let atSaves = context(cookies, path: "/affirmation")
        let atPages = context(cookies, path: "/me")
        #expect(atSaves.session?.accessToken != nil)
        #expect(atPages.session?.accessToken == nil)
    }

    @Test func aTamperedCookieIsAVisitorAndIsCleared() throws {
        var cookies = try stored
        // One character in the middle changed (the last ones may carry bits the decoding ignores).
        var characters = Array(cookies[0].value)
        let middle = characters.count / 2
        characters[middle] = characters[middle] == "A" ? "B" : "A"
        cookies[0].value = String(characters)
        let context = context(cookies)
        #expect(context.session == nil)
        let written = try context.setCookies()
        #expect(written.contains { $0.name == "mds" && $0.maxAge == 0 })
    }

    @Test func anUpdateIsStoredAndAnEndClearsEverything() throws {
        let cookies = try stored
        let updating = context(cookies)
        updating.update { $0.metadata.affirmation = "Changed" }
        let written = try updating.setCookies()
        let reopened = context(written)
        #expect(reopened.session?.metadata.affirmation == "Changed")

        let ending = context(cookies)
        ending.setFlash("Bye")
        ending.end()
        let cleared = try ending.setCookies()
        #expect(cleared.allSatisfy { $0.maxAge == 0 })
        #expect(cleared.contains { $0.name == "mds" } && cleared.contains { $0.name == "mda" })
    }

    @Test func aFlashIsShownOnceWithoutSealingTheSessionAgain() throws {
        let cookies = try stored
        let saving = context(cookies)
        saving.setFlash("Affirmation saved.")
        let flash = try saving.setCookies()
        #expect(flash.map(\.name) == ["mdf"])
        let showing = context(cookies + flash)
        #expect(showing.takeFlash() == "Affirmation saved.")
        let after = try showing.setCookies()
        #expect(after.map(\.name) == ["mdf"])
        #expect(after.allSatisfy { $0.maxAge == 0 })
        let withoutFlash = context(cookies)
        #expect(withoutFlash.takeFlash() == nil)
    }

    @Test func aNewSessionReplacesWhateverWasSent() throws {
        var cookies = try stored
        cookies[0].value = "garbage"
        let login = context(cookies)
        login.start(SessionCookiesTests.session(affirmation: "Fresh", createdAt: Int64(time.clock.now())))
        let written = try login.setCookies()
        let reopenedLogin = context(written)
        #expect(reopenedLogin.session?.metadata.affirmation == "Fresh")
    }

    @Test func theCSRFTokenIsTheSessions() throws {
        let context = context(try stored)
        let (right, wrong, missing) = (
            context.isValidCSRFToken("csrf-token"), context.isValidCSRFToken("csrf-tokem"),
            context.isValidCSRFToken(nil)
        )
        #expect(right && !wrong && !missing)
        let visitor = self.context([])
        let visitorsGuess = visitor.isValidCSRFToken("csrf-token")
        #expect(!visitorsGuess)
    }
}
