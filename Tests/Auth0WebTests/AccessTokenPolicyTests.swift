import Auth0Web
import Testing

@Suite struct AccessTokenPolicyTests {
    private let now: Int64 = 1_700_000_000

    private func token(lasting seconds: Int64) -> AccessToken {
        AccessToken(value: "AT", expiresAt: now + seconds)
    }

    @Test func aTokenWithAMinuteOrMoreLeftIsUsed() {
        #expect(AccessTokenPolicy.decide(token: token(lasting: 60), refreshToken: "RT", now: now) == .use("AT"))
        #expect(AccessTokenPolicy.decide(token: token(lasting: 86_400), refreshToken: nil, now: now) == .use("AT"))
    }

    @Test func aTokenAboutToExpireOrMissingIsRenewedWhenItCanBe() {
        #expect(
            AccessTokenPolicy.decide(token: token(lasting: 59), refreshToken: "RT", now: now)
                == .renew(refreshToken: "RT"))
        #expect(AccessTokenPolicy.decide(token: nil, refreshToken: "RT", now: now) == .renew(refreshToken: "RT"))
        #expect(
            AccessTokenPolicy.decide(token: token(lasting: -5), refreshToken: "RT", now: now)
                == .renew(refreshToken: "RT"))
    }

    /// No refresh token (no `offline_access`): a short token is used while it works, then the
    /// session must log in again.
    @Test func withoutARefreshTokenAShortTokenIsUsedUntilItExpires() {
        #expect(AccessTokenPolicy.decide(token: token(lasting: 30), refreshToken: nil, now: now) == .use("AT"))
        #expect(AccessTokenPolicy.decide(token: token(lasting: 0), refreshToken: nil, now: now) == .ended)
        #expect(AccessTokenPolicy.decide(token: nil, refreshToken: nil, now: now) == .ended)
    }
}
