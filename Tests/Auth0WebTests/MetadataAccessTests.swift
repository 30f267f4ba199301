import Auth0Web
import TestSupport
import Testing
import Web

@Suite struct MetadataAccessTests {
    let tenant = TenantScript()
    let time = ManualClock(TenantScript.now)

    /// A session whose access token expires in `seconds` (so under a minute means a renewal first).
    private func session(tokenSeconds: Int64) -> Session {
        Session(
            profile: .init(
                sub: "auth0|1", name: "S", email: "s@example.com", emailVerified: true, picture: "", updatedAt: ""),
            accessToken: AccessToken(value: "AT0", expiresAt: Int64(TenantScript.now) + tokenSeconds),
            refreshToken: "RT0", tenantSessionID: nil, csrfToken: "csrf", createdAt: Int64(TenantScript.now))
    }

    @Test func aSaveKeepsTheMetadataAsSavedAndTheRenewedTokens() throws {
        let access = try Auth0Mechanisms.testing(http: tenant, clock: time.clock).metadata
        var session = session(tokenSeconds: 10)
        try access.save("New words", in: &session)
        #expect(session.metadata.affirmation == "New words")
        #expect(session.refreshToken == "RT1")  // rotated
        #expect(session.accessToken?.value.hasPrefix("AT-") == true)
        #expect(session.accessToken?.expiresAt == Int64(TenantScript.now) + 86_400)
        #expect(tenant.sent(to: "oauth/token").count == 1)
    }

    /// Metadata access for a provider that is not Auth0, over the scripted tenant.
    private func genericAccess() throws -> MetadataAccess {
        let generic = try RelyingPartySettings(
            environment: TestSettings.environment([
                "AUTH0_DOMAIN": nil, "ISSUER_BASE_URL": "https://sso.example.com/realms/demo",
            ]))
        return try Auth0Mechanisms.testing(http: tenant, clock: time.clock, settings: generic).metadata
    }

    /// Another provider has no Management API: reading and saving say so, and nothing is sent.
    @Test func aGenericProviderOffersNoMetadataAndCallsNothing() throws {
        let access = try genericAccess()
        var session = session(tokenSeconds: 10)
        #expect(throws: ManagementError(.notOffered)) { try access.refresh(&session) }
        #expect(throws: ManagementError(.notOffered)) { try access.save("Words", in: &session) }
        #expect(tenant.sent.isEmpty)
        #expect(ManagementError(.notOffered).status == 409)
        #expect(ManagementError(.notOffered).wordsKey == "metadata.not_offered")
    }

    /// Revalidating a generic provider's session renews its token (the check) and reads nothing.
    @Test func aGenericProvidersSessionIsRevalidatedByItsRefreshToken() throws {
        let access = try genericAccess()
        var session = session(tokenSeconds: 3600)
        session.accessToken = nil
        try access.revalidate(&session)
        #expect(tenant.sent(to: "oauth/token").count == 1)
        #expect(tenant.sent(to: "api/v2/").isEmpty)
        #expect(session.refreshToken == "RT1")
        tenant.change {
            $0.tokenStatus = 403
            $0.tokenError = "invalid_grant"
        }
        session.accessToken = nil
        #expect(throws: SessionEnded("refresh_refused")) { try access.revalidate(&session) }
    }

    /// A failed read says reading, not saving (the save's words said "a problem saving this").
    @Test func aFailedReadIsWordedAsARead() throws {
        tenant.change { $0.managementStatus = 503 }
        let access = try Auth0Mechanisms.testing(http: tenant, clock: time.clock).metadata
        var session = session(tokenSeconds: 3600)
        do {
            try access.refresh(&session)
            Issue.record("a 503 read succeeded")
        } catch let error as ManagementError {
            #expect(error.wordsKey == "load.server_error")
        }
        do {
            try access.save("Words", in: &session)
            Issue.record("a 503 save succeeded")
        } catch let error as ManagementError {
            #expect(error.wordsKey == "save.server_error")
        }
    }

    @Test func aRefusedRefreshTokenEndsTheSession() throws {
        tenant.change {
            $0.tokenStatus = 403
            $0.tokenError = "invalid_grant"
        }
        let access = try Auth0Mechanisms.testing(http: tenant, clock: time.clock).metadata
        var session = session(tokenSeconds: 10)
        #expect(throws: SessionEnded("refresh_refused")) { try access.refresh(&session) }
        #expect(tenant.sent(to: "api/v2/").isEmpty)  // no call with a dead token
    }

    /// The tenant's trouble keeps the session as it was, and the next call renews again.
    @Test(arguments: [(503, "server_error"), (429, "too_many_requests")])
    func tokenEndpointTroubleKeepsTheSession(status: Int, error: String) throws {
        tenant.change {
            $0.tokenStatus = status
            $0.tokenError = error
        }
        let access = try Auth0Mechanisms.testing(http: tenant, clock: time.clock).metadata
        var session = session(tokenSeconds: 10)
        let before = session
        #expect(throws: AuthError(.tenantUnavailable, "\(status) \(error)")) { try access.save("x", in: &session) }
        #expect(session == before)
        tenant.change { $0.tokenStatus = 200 }
        try access.save("x", in: &session)
        #expect(session.metadata.affirmation == "x")
        #expect(tenant.sent(to: "oauth/token").count == 2)
    }

    @Test func aTokenTheManagementAPIRefusesEndsTheSession() throws {
        tenant.change { $0.managementStatus = 401 }
        let access = try Auth0Mechanisms.testing(http: tenant, clock: time.clock).metadata
        var session = session(tokenSeconds: 3600)
        #expect(throws: SessionEnded("management_api_unauthorized")) { try access.refresh(&session) }
    }
}
