import Auth0Web
import TestSupport
import Testing
import Web

@Suite struct LoginCompletionTests {
    let tenant = TenantScript()
    let time = ManualClock(TenantScript.now)

    /// A login begun in this browser: the callback's query and the cookies it sends back.
    private func begun(_ mechanisms: Auth0Mechanisms, pending: String? = nil, stepUp: StepUp? = nil) throws -> (
        FormData, Cookies
    ) {
        let transaction = LoginTransaction.begin(returnTo: "/back", pendingAffirmation: pending, stepUp: stepUp)
        tenant.change { $0.nonce = transaction.nonce }
        let cookies = try mechanisms.transactions.start(transaction, existing: Cookies(header: ""))
        let header = cookies.map { "\($0.name)=\($0.value)" }.joined(separator: "; ")
        return (FormData(pairs: [("code", "C1"), ("state", transaction.state)]), Cookies(header: header))
    }

    @Test func aLoginMakesTheSessionFromTheIDTokenAndFetchesTheMetadata() throws {
        let mechanisms = try Auth0Mechanisms.testing(http: tenant, clock: time.clock)
        let (query, cookies) = try begun(mechanisms)
        let login = try mechanisms.logins.finish(query: query, cookies: cookies)
        #expect(login.returnTo == "/back")
        #expect(login.session.profile.sub == "auth0|1")
        #expect(login.session.tenantSessionID == "sid-1")
        #expect(login.session.refreshToken == "RT1")
        #expect(login.session.metadata.affirmation == "Believe in yourself!")
        guard case .loaded = login.metadata else { Issue.record("\(login.metadata)"); return }
    }

    /// Mini apps' rules read roles from the ID token's configured claim and the `app_metadata`
    /// flags they name: the session keeps those, and nothing else of either.
    @Test func theSessionKeepsTheRolesAndFlagsTheRulesRead() throws {
        tenant.change {
            $0.extraClaims = [
                "https://demo.example.com/roles": .array(["editor", "viewer"]),
                "https://other/roles": .array(["admin"]),
            ]
            $0.appMetadata = [
                "display_announcement": .bool(true), "beta": "true", "plan": "gold", "staff": .bool(false),
            ]
        }
        let facts = RuleFacts(
            appMetadataFlags: ["display_announcement", "beta", "staff", "absent"],
            rolesClaim: "https://demo.example.com/roles")
        let mechanisms = try Auth0Mechanisms.testing(http: tenant, clock: time.clock, ruleFacts: facts)
        let (query, cookies) = try begun(mechanisms)
        let session = try mechanisms.logins.finish(query: query, cookies: cookies).session
        #expect(session.roles == ["editor", "viewer"])
        #expect(session.metadata.flags == ["display_announcement"], "only the boolean true of a flag a rule names")
        let plain = try Auth0Mechanisms.testing(http: tenant, clock: time.clock)
        let (again, cookiesAgain) = try begun(plain)
        let without = try plain.logins.finish(query: again, cookies: cookiesAgain).session
        #expect(without.roles.isEmpty && without.metadata.flags.isEmpty, "no mini apps: nothing more kept")
    }

    /// A login that asked for a second factor within ten minutes (a mini app's step-up) stands
    /// only when the ID token shows it: `acr` the policy with `mfa` in `amr`, `auth_time` recent.
    @Test func aStepUpStandsOnlyWhenTheIDTokenShowsIt() throws {
        let mechanisms = try Auth0Mechanisms.testing(http: tenant, clock: time.clock)
        let stepUp = StepUp(maxAge: 600, acrValues: StepUp.multiFactorPolicy)
        let now = JSONValue.number(TenantScript.now)
        let shown: [String: JSONValue] = [
            "acr": .string(StepUp.multiFactorPolicy), "amr": .array(["mfa"]), "auth_time": now,
        ]
        let cases: [([String: JSONValue], Bool)] = [
            ([:], false), (shown.merging(["amr": .array(["pwd"])]) { $1 }, false),
            (shown.merging(["acr": "http://example/other"]) { $1 }, false),
            (shown.merging(["auth_time": .number(TenantScript.now - 3_600)]) { $1 }, false),
            (shown.filter { $0.key != "auth_time" }, false), (shown, true),
        ]
        for (claims, stands) in cases {
            tenant.change { $0.extraClaims = claims }
            let (query, cookies) = try begun(mechanisms, stepUp: stepUp)
            do {
                let session = try mechanisms.logins.finish(query: query, cookies: cookies).session
                #expect(stands, "\(claims)")
                #expect(session.acr == StepUp.multiFactorPolicy && session.amr == ["mfa"])
                #expect(session.authTime == Int64(TenantScript.now))
            } catch {
                #expect(!stands && error.code == .stepUpNotMet, "\(claims): \(error)")
            }
        }
    }

    /// A token of under a minute and no refresh token (no `offline_access`): the login
    /// completes and the token is used while it works (this was a 500 at the callback).
    @Test func aShortTokenWithoutARefreshTokenIsUsedForTheFirstFetch() throws {
        tenant.change {
            $0.accessTokenSeconds = 30
            $0.issuesRefreshTokens = false
        }
        let mechanisms = try Auth0Mechanisms.testing(http: tenant, clock: time.clock)
        let (query, cookies) = try begun(mechanisms)
        let login = try mechanisms.logins.finish(query: query, cookies: cookies)
        guard case .loaded = login.metadata else { Issue.record("\(login.metadata)"); return }
        #expect(login.session.refreshToken == nil)
        #expect(tenant.sent(to: "oauth/token").count == 1)  // the exchange; nothing could renew
    }

    @Test func aPendingSaveIsMadeAndAFailedOneKeepsItsText() throws {
        let mechanisms = try Auth0Mechanisms.testing(http: tenant, clock: time.clock)
        var (query, cookies) = try begun(mechanisms, pending: "Typed before")
        let saved = try mechanisms.logins.finish(query: query, cookies: cookies)
        guard case .saved = saved.metadata else { Issue.record("\(saved.metadata)"); return }
        #expect(saved.session.metadata.affirmation == "Typed before")

        (query, cookies) = try begun(mechanisms, pending: "Typed again")
        tenant.change { $0.managementStatus = 429 }
        let failed = try mechanisms.logins.finish(query: query, cookies: cookies)
        guard case .notSaved(let text, let error) = failed.metadata else {
            Issue.record("\(failed.metadata)")
            return
        }
        #expect(text == "Typed again")
        #expect(error.status == 429)
    }

    @Test func aTenantThatCannotBeReachedForTheMetadataStillLogsIn() throws {
        let mechanisms = try Auth0Mechanisms.testing(http: tenant, clock: time.clock)
        let (query, cookies) = try begun(mechanisms)
        tenant.change { $0.managementStatus = 503 }
        let login = try mechanisms.logins.finish(query: query, cookies: cookies)
        guard case .notLoaded(let error) = login.metadata else { Issue.record("\(login.metadata)"); return }
        #expect(error.status == 503)
    }

    /// RFC 9207: an authorization response that names its issuer names this provider, or another
    /// provider's code (a mix-up) is sent nowhere; nothing is exchanged for a refused response.
    @Test func theAuthorizationResponsesIssuerIsThisProviders() throws {
        let mechanisms = try Auth0Mechanisms.testing(http: tenant, clock: time.clock)
        var (query, cookies) = try begun(mechanisms)
        query = FormData(pairs: query.pairs + [("iss", "https://attacker.example/")])
        #expect(throws: AuthError(.wrongResponseIssuer)) {
            try mechanisms.logins.finish(query: query, cookies: cookies)
        }
        #expect(tenant.sent.isEmpty)
        (query, cookies) = try begun(mechanisms)
        query = FormData(pairs: query.pairs + [("iss", TestSettings.endpoints.issuer)])
        #expect(try mechanisms.logins.finish(query: query, cookies: cookies).session.profile.sub == "auth0|1")
    }

    /// A provider whose discovery document says it names itself in every authorization response
    /// (`authorization_response_iss_parameter_supported`) is held to it.
    @Test func aProviderThatAlwaysNamesItselfMustHaveDoneSo() throws {
        let issuer = TestSettings.endpoints.issuer
        let endpoints = try TestSettings.discovered(
            issuer: issuer,
            [
                "userinfo_endpoint": .string(issuer + "userinfo"),
                "authorization_response_iss_parameter_supported": .bool(true),
            ])
        #expect(endpoints.sendsIssuerInAuthorizationResponse)
        #expect(!TestSettings.endpoints.sendsIssuerInAuthorizationResponse)
        let mechanisms = try Auth0Mechanisms.testing(http: tenant, clock: time.clock, endpoints: endpoints)
        var (query, cookies) = try begun(mechanisms)
        #expect(throws: AuthError(.missingResponseIssuer)) {
            try mechanisms.logins.finish(query: query, cookies: cookies)
        }
        #expect(tenant.sent.isEmpty)
        (query, cookies) = try begun(mechanisms)
        query = FormData(pairs: query.pairs + [("iss", issuer)])
        #expect(try mechanisms.logins.finish(query: query, cookies: cookies).session.profile.sub == "auth0|1")
    }

    /// An ID token's `s_hash` (FAPI 1.0 Advanced) that is not its response's `state` fails the
    /// login before any session is made; the right one stands.
    @Test func anIDTokensStateHashMustBeTheResponsesState() throws {
        let mechanisms = try Auth0Mechanisms.testing(http: tenant, clock: time.clock)
        var (query, cookies) = try begun(mechanisms)
        tenant.change { $0.extraClaims = ["s_hash": .string(StateHash.of("another", algorithm: .rs256))] }
        let wrong = #expect(throws: AuthError.self) { try mechanisms.logins.finish(query: query, cookies: cookies) }
        #expect(wrong?.code == .stateHashMismatch)
        (query, cookies) = try begun(mechanisms)
        let state = try #require(query["state"])
        tenant.change { $0.extraClaims = ["s_hash": .string(StateHash.of(state, algorithm: .rs256))] }
        #expect(try mechanisms.logins.finish(query: query, cookies: cookies).session.profile.sub == "auth0|1")
    }

    @Test func aStateThisBrowserDidNotStartIsRefused() throws {
        let mechanisms = try Auth0Mechanisms.testing(http: tenant, clock: time.clock)
        let (query, _) = try begun(mechanisms)
        #expect(throws: AuthError(.unknownState)) {
            try mechanisms.logins.finish(query: query, cookies: Cookies(header: ""))
        }
        #expect(tenant.sent.isEmpty)  // no code is exchanged for a login this browser did not start
    }
}
