import Auth0Web
import Testing

@Suite struct PKCETests {
    /// RFC 7636, appendix B.
    @Test func challengeMatchesTheRFCExample() {
        #expect(
            PKCE.challenge(for: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
                == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
    }

    @Test func verifiersAreLongRandomAndURLSafe() {
        let a = PKCE.makeVerifier()
        let b = PKCE.makeVerifier()
        #expect(a != b)
        #expect(a.count == 43)
        #expect(a.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
    }
}

@Suite struct ReturnPathTests {
    @Test(arguments: ["/", "/mini/app?x=1", "/logged-out#top", "/a/b/c"])
    func relativePathsAreKept(_ path: String) { #expect(ReturnPath.sanitize(path) == path) }

    @Test(arguments: [
        "//evil.example", "https://evil.example", "/\\evil.example", "\\\\evil", "/%2Fevil.example", "/%5cevil",
        "javascript:alert(1)", "evil", "", "/\tx", "/a b", "/%0d%0aSet-Cookie:x",
    ])
    func offSiteOrOddPathsBecomeHome(_ path: String) { #expect(ReturnPath.sanitize(path) == "/") }
}
