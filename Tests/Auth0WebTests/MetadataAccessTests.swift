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
        let access = try TestMechanisms(http: tenant, clock: time.clock).metadata
        var session = session(tokenSeconds: 10)
        try access.save("New words", in: &session)
        #expect(session.metadata.affirmation == "New words")
        #expect(session.refreshToken == "RT1")  // rotated
        #expect(session.accessToken?.value.hasPrefix("AT-") == true)
        #expect(session.accessToken?.expiresAt == Int64(TenantScript.now) + 86_400)
        #expect(tenant.sent(to: "oauth/token").count == 1)
    }

    @Test func aRefusedRefreshTokenEndsTheSession() throws {
        tenant.change {
            $0.tokenStatus = 403
            $0.tokenError = "invalid_grant"
        }
        let access = try TestMechanisms(http: tenant, clock: time.clock).metadata
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
        let access = try TestMechanisms(http: tenant, clock: time.clock).metadata
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
        let access = try TestMechanisms(http: tenant, clock: time.clock).metadata
        var session = session(tokenSeconds: 3600)
        #expect(throws: SessionEnded("management_api_unauthorized")) { try access.refresh(&session) }
    }
}
