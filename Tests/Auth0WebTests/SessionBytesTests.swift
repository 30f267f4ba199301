import Auth0Web
import Testing

/// The session cookie's byte format: what is sealed opens the same, and cookies sealed by the
/// previous release still open (their holders stay logged in across an upgrade).
@Suite struct SessionBytesTests {
    private func session(idTokenHint: String?) -> Session {
        Session(
            profile: .init(
                sub: "user-1", name: "Ada", email: "ada@example.org", emailVerified: true, picture: "", updatedAt: ""),
            accessToken: nil, refreshToken: "RT", tenantSessionID: "sid-1", csrfToken: "csrf",
            createdAt: 1_700_000_000, checkedAt: 1_700_000_600, idTokenHint: idTokenHint)
    }

    @Test(arguments: [nil, "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ1c2VyLTEifQ.c2ln"])
    func aSessionOpensAsItWasSealed(idTokenHint: String?) throws {
        let sealed = session(idTokenHint: idTokenHint)
        #expect(Session(encoded: sealed.encoded()[...]) == sealed)
    }

    /// Mini apps' rules read the metadata's flags and the roles: they survive the cookie.
    @Test func flagsAndRolesOpenAsSealed() throws {
        var sealed = session(idTokenHint: nil)
        sealed.metadata.flags = ["display_announcement", "beta"]
        sealed.roles = ["editor", "角色"]
        let opened = try #require(Session(encoded: sealed.encoded()[...]))
        #expect(opened.metadata.flags == ["display_announcement", "beta"] && opened.roles == ["editor", "角色"])
    }

    @Test func aVersion5SessionOpensWithoutHowThePersonAuthenticated() throws {
        // Version 5 is version 6 without auth_time, acr (a byte each: absent) and amr (a count byte, 0).
        var bytes = session(idTokenHint: "a.b.c").encoded()
        #expect(bytes.first == 6)
        bytes[0] = 5
        bytes.removeLast(3)
        #expect(Session(encoded: bytes[...]) == session(idTokenHint: "a.b.c"))
    }

    @Test func aVersion4SessionOpensWithoutFlagsOrRoles() throws {
        // Version 4 is version 5 without the two lists (one count byte each, 0) at the end.
        var bytes = session(idTokenHint: "a.b.c").encoded()
        bytes[0] = 4
        bytes.removeLast(3 + 2)
        #expect(Session(encoded: bytes[...]) == session(idTokenHint: "a.b.c"))
    }

    @Test func aVersion3SessionOpensWithoutAnIDToken() throws {
        // Version 3 is version 4 without the ID token's field (one byte: absent) at the end.
        var bytes = session(idTokenHint: nil).encoded()
        bytes[0] = 3
        bytes.removeLast(3 + 2 + 1)
        let opened = try #require(Session(encoded: bytes[...]))
        #expect(opened == session(idTokenHint: nil))
        #expect(opened.checkedAt == 1_700_000_600)
    }

    @Test func aVersionItDoesNotKnowDoesNotOpen() {
        var bytes = session(idTokenHint: nil).encoded()
        bytes[0] = 7
        #expect(Session(encoded: bytes[...]) == nil)
        bytes[0] = 1
        #expect(Session(encoded: bytes[...]) == nil)
    }
}

/// How the person authenticated (mini apps' step-up) survives the cookie; a step-up's words are
/// checked before they are sent anywhere.
@Suite struct StepUpTests {
    @Test func howThePersonAuthenticatedOpensAsSealed() throws {
        let sealed = Session(
            profile: .init(sub: "u", name: "", email: "", emailVerified: nil, picture: "", updatedAt: ""),
            accessToken: nil, refreshToken: nil, tenantSessionID: nil, csrfToken: "c", createdAt: 1,
            authTime: 1_700_000_000, acr: StepUp.multiFactorPolicy, amr: ["pwd", "mfa"])
        #expect(Session(encoded: sealed.encoded()[...]) == sealed)
    }

    @Test func aStepUpFromAQueryTakesOnlySaneValues() {
        #expect(StepUp(maxAge: "600", acrValues: nil) == StepUp(maxAge: 600))
        #expect(StepUp(maxAge: "-1", acrValues: nil) == nil)
        #expect(StepUp(maxAge: "99999999999", acrValues: nil) == nil)
        #expect(StepUp(maxAge: nil, acrValues: StepUp.multiFactorPolicy)?.acrValues == StepUp.multiFactorPolicy)
        #expect(StepUp(maxAge: nil, acrValues: "a\"b<c>") == nil)
        #expect(StepUp(maxAge: nil, acrValues: "") == nil)
    }

    @Test func aStepUpIsMetByARecentEnoughSecondFactor() {
        let both = StepUp(maxAge: 600, acrValues: StepUp.multiFactorPolicy)
        let policy = StepUp.multiFactorPolicy
        #expect(both.isMet(authTime: 1_000, acr: policy, amr: ["mfa"], now: 1_500))
        #expect(both.isMet(authTime: 1_000, acr: policy, amr: ["mfa"], now: 1_660), "60 s for clocks")
        #expect(!both.isMet(authTime: 1_000, acr: policy, amr: ["mfa"], now: 1_661))
        #expect(!both.isMet(authTime: nil, acr: policy, amr: ["mfa"], now: 1_000))
        #expect(!both.isMet(authTime: 1_000, acr: policy, amr: [], now: 1_000))
        #expect(both.isMet(authTime: 1_000, acr: nil, amr: ["mfa"], now: 1_000), "Auth0's guide checks amr")
        #expect(!both.isMet(authTime: 1_000, acr: "urn:other", amr: ["mfa"], now: 1_000))
        #expect(!both.isMet(authTime: 1_000, acr: policy, amr: ["pwd"], now: 1_000))
        #expect(StepUp(acrValues: "urn:gold").isMet(authTime: nil, acr: "urn:gold", amr: [], now: 1_000))
        #expect(StepUp(maxAge: 600).isMet(authTime: 1_000, acr: nil, amr: [], now: 1_100))
    }
}
