import Auth0Web
import MetadataDemoApp
import Testing
import Web

/// Issue 61, item 4: one answer to "may this person enter app X", which the door, its refusal
/// page and the logged-in page's list each ask: a rule that keeps them out comes first, then a
/// login the app finds too old or without its second factor; rules only a token settles wait
/// for the token.
@Suite struct MiniAppAdmissionTests {
    let now: Int64 = 1_800_000_000

    func session(verified: Bool, authTime: Int64?, amr: [String] = []) -> Session {
        Session(
            profile: .init(
                sub: "user-1", name: "Ada", email: "ada@example.org", emailVerified: verified, picture: "",
                updatedAt: ""),
            accessToken: nil, refreshToken: nil, tenantSessionID: nil, csrfToken: "csrf", createdAt: now,
            authTime: authTime, amr: amr)
    }

    let stepUp = StepUp(maxAge: 600, acrValues: StepUp.multiFactorPolicy)

    var account: MiniApp {
        MiniApp(
            name: "account", titles: [.en: "Account"], path: "/account/", assertionAudience: "https://a.example/",
            rules: [.emailVerified, .permissions(["read:account"])],
            api: MiniAppAPI(audience: "https://api.example/", scopes: ["read:account"]), authentication: stepUp)
    }

    @Test func aRuleComesBeforeTheLoginTheAppNeeds() {
        let unverified = session(verified: false, authTime: now - 3600)
        #expect(account.admission(for: unverified, now: now) == .refused(.emailVerified))
    }

    @Test func anOldOrSingleFactorLoginIsAskedToLogInAgain() {
        #expect(
            account.admission(for: session(verified: true, authTime: now - 3600), now: now)
                == .needsAuthentication(stepUp))
        #expect(
            account.admission(for: session(verified: true, authTime: now - 60), now: now)
                == .needsAuthentication(stepUp))
        let recent = session(verified: true, authTime: now - 60, amr: ["mfa"])
        // The permissions rule waits for the API's token: so far, they may enter.
        #expect(account.admission(for: recent, now: now) == .admitted)
        #expect(account.admission(for: recent, now: now).refusingRule == nil)
    }
}
