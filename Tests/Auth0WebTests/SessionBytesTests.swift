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

    @Test func aVersion3SessionOpensWithoutAnIDToken() throws {
        // Version 3 is version 4 without the ID token's field (one byte: absent) at the end.
        var bytes = session(idTokenHint: nil).encoded()
        #expect(bytes.first == 4)
        bytes[0] = 3
        bytes.removeLast()
        let opened = try #require(Session(encoded: bytes[...]))
        #expect(opened == session(idTokenHint: nil))
        #expect(opened.checkedAt == 1_700_000_600)
    }

    @Test func aVersionItDoesNotKnowDoesNotOpen() {
        var bytes = session(idTokenHint: nil).encoded()
        bytes[0] = 5
        #expect(Session(encoded: bytes[...]) == nil)
        bytes[0] = 1
        #expect(Session(encoded: bytes[...]) == nil)
    }
}
