import Testing

@testable import DevTenantKit

/// The dev tenant's limits on guessing, and its single-use form tickets.
@Suite struct LoginGuardTests {
    let now: Double = 1_700_000_000

    @Test func failuresAreLimitedPerAddressAcrossEmails() {
        let guardian = LoginGuard()
        for index in 0..<LoginGuard.failuresPerAddress {
            #expect(!guardian.isLimited(email: "user\(index)@example.com", address: "192.0.2.7", now: now))
            guardian.recordFailure(email: "user\(index)@example.com", address: "192.0.2.7", now: now)
        }
        #expect(guardian.isLimited(email: "someone-new@example.com", address: "192.0.2.7", now: now))
        #expect(!guardian.isLimited(email: "someone-new@example.com", address: "192.0.2.8", now: now))
        #expect(
            !guardian.isLimited(email: "someone-new@example.com", address: "192.0.2.7", now: now + LoginGuard.window))
    }

    /// Review 2, item 9: ten wrong guesses by anyone locked the owner out everywhere. As Auth0's
    /// brute-force protection does, the account is blocked from the guessing address only.
    @Test func failuresAreLimitedPerEmailFromOneAddressCaseBlind() {
        let guardian = LoginGuard()
        for _ in 0..<LoginGuard.failuresPerEmail {
            guardian.recordFailure(email: "Skippy@Example.com", address: "192.0.2.7", now: now)
        }
        #expect(guardian.isLimited(email: "skippy@example.com", address: "192.0.2.7", now: now))
        #expect(!guardian.isLimited(email: "skippy@example.com", address: "198.51.100.1", now: now))
        for index in 0..<LoginGuard.failuresPerEmail {
            guardian.recordFailure(email: "randomuser@example.com", address: "203.0.113.\(index)", now: now)
        }
        #expect(!guardian.isLimited(email: "randomuser@example.com", address: "198.51.100.1", now: now))
    }

    /// Issue 49, I1: wrong one-time codes counted per person *and address* gave each new
    /// address ten more guesses at a six-digit code; Auth0's MFA counts them per person.
    @Test func wrongCodesAreLimitedPerPersonAcrossAddresses() {
        let guardian = LoginGuard()
        for index in 0..<LoginGuard.failuresPerEmail {
            #expect(!guardian.isCodeLimited(person: "auth0|skippy", address: "203.0.113.\(index)", now: now))
            guardian.recordCodeFailure(person: "auth0|skippy", address: "203.0.113.\(index)", now: now)
        }
        #expect(guardian.isCodeLimited(person: "auth0|skippy", address: "198.51.100.1", now: now))
        #expect(!guardian.isCodeLimited(person: "auth0|random", address: "198.51.100.1", now: now))
        #expect(!guardian.isCodeLimited(person: "auth0|skippy", address: "198.51.100.1", now: now + LoginGuard.window))
        #expect(!guardian.isLimited(email: "auth0|skippy", address: "203.0.113.0", now: now), "passwords apart")
    }

    /// Issue 49, I1: a code that just passed was accepted again by a second browser in its
    /// window. Each code passes once (RFC 6238 §5.2), and none of an earlier step after it.
    @Test func aOneTimeCodePassesOnce() {
        let guardian = LoginGuard()
        #expect(guardian.useCode(person: "auth0|skippy", step: 100))
        #expect(!guardian.useCode(person: "auth0|skippy", step: 100), "the same code again")
        #expect(!guardian.useCode(person: "auth0|skippy", step: 99), "an earlier one")
        #expect(guardian.useCode(person: "auth0|random", step: 100), "another person's")
        #expect(guardian.useCode(person: "auth0|skippy", step: 101), "the next step's")
    }

    @Test func keysOfPastWindowsArePrunedAsNewOnesCome() {
        let guardian = LoginGuard()
        for index in 0..<LoginGuard.pruneAbove {
            guardian.recordFailure(email: "u\(index)@example.com", address: "192.0.2.\(index % 200)", now: now)
        }
        #expect(guardian.rememberedKeys >= LoginGuard.pruneAbove)
        guardian.recordFailure(email: "late@example.com", address: "198.51.100.9", now: now + LoginGuard.window)
        #expect(guardian.rememberedKeys == 2)
    }

    @Test func aTicketIsUsedOnce() {
        let guardian = LoginGuard()
        #expect(guardian.use(ticket: "t1", expiresAt: now + 1800, now: now))
        #expect(!guardian.use(ticket: "t1", expiresAt: now + 1800, now: now + 1))
        #expect(guardian.use(ticket: "t2", expiresAt: now + 1800, now: now + 1))
    }
}
