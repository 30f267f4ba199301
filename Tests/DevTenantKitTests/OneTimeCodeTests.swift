import DevTenantKit
import Testing

/// The dev tenant's one-time codes are RFC 6238's (the appendix's SHA-1 vectors, cut to six
/// digits as authenticator apps show them), so a real authenticator app or `oathtool` agrees.
@Suite struct OneTimeCodeTests {
    /// "12345678901234567890" in base32.
    let secret = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"

    @Test(arguments: [
        (59.0, "287082"), (1_111_111_109, "081804"), (1_111_111_111, "050471"), (1_234_567_890, "005924"),
        (2_000_000_000, "279037"), (20_000_000_000, "353130"),
    ])
    func theRFCVectors(time: Double, code: String) {
        #expect(OneTimeCode.code(secret: secret, at: time) == code)
    }

    @Test func aCodeIsTakenAStepEarlyOrLateAndNoFurther() {
        let code = "081804"  // the step of 1,111,111,109
        #expect(OneTimeCode.matches(code, secret: secret, at: 1_111_111_109))
        #expect(OneTimeCode.matches("081 804", secret: secret, at: 1_111_111_109 + 30))
        #expect(OneTimeCode.matches(code, secret: secret, at: 1_111_111_109 - 30))
        #expect(!OneTimeCode.matches(code, secret: secret, at: 1_111_111_109 + 90))
        #expect(!OneTimeCode.matches("81804", secret: secret, at: 1_111_111_109))
        #expect(!OneTimeCode.matches(code, secret: "not base32!", at: 1_111_111_109))
        // The step it names, whichever of the three it was taken in.
        #expect(OneTimeCode.matchingStep(code, secret: secret, at: 1_111_111_109 + 30) == Int64(1_111_111_109) / 30)
        #expect(OneTimeCode.matchingStep(code, secret: secret, at: 1_111_111_109 + 90) == nil)
    }
}
