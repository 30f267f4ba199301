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
