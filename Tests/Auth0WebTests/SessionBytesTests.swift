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

    @Test func aVersion4SessionOpensWithoutFlagsOrRoles() throws {
        // Version 4 is version 5 without the two lists (one count byte each, 0) at the end.
        var bytes = session(idTokenHint: "a.b.c").encoded()
        #expect(bytes.first == 5)
        bytes[0] = 4
        bytes.removeLast(2)
        #expect(Session(encoded: bytes[...]) == session(idTokenHint: "a.b.c"))
    }

    @Test func aVersion3SessionOpensWithoutAnIDToken() throws {
        // Version 3 is version 4 without the ID token's field (one byte: absent) at the end.
        var bytes = session(idTokenHint: nil).encoded()
        #expect(bytes.first == 5)
        bytes[0] = 3
        bytes.removeLast(3)
        let opened = try #require(Session(encoded: bytes[...]))
        #expect(opened == session(idTokenHint: nil))
        #expect(opened.checkedAt == 1_700_000_600)
    }

    @Test func aVersionItDoesNotKnowDoesNotOpen() {
        var bytes = session(idTokenHint: nil).encoded()
        bytes[0] = 6
        #expect(Session(encoded: bytes[...]) == nil)
        bytes[0] = 1
        #expect(Session(encoded: bytes[...]) == nil)
    }
}
