import Auth0Web
import Foundation
import Locking
import TestSupport
import Testing
import Web

@Suite struct TokenRenewerTests {
    private func renewer(_ tenant: ScriptedHTTPClient, clock: Clock = .system) throws -> TokenRenewer {
        TokenRenewer(
            tokens: try TokenClient(settings: TestSettings.auth0, endpoints: TestSettings.endpoints, http: tenant),
            clock: clock)
    }

    @Test func concurrentRenewalsOfOneRefreshTokenReachTheTenantOnce() throws {
        let tenant = ScriptedHTTPClient { _ in
            usleep(100_000)  // a slow tenant, so the others arrive while it works
            return HTTPClientResponse(
                status: 200,
                body: Array(
                    #"{"access_token":"AT2","refresh_token":"RT2","expires_in":86400,"token_type":"Bearer"}"#.utf8))
        }
        let renewer = try renewer(tenant)
        let results = Lock<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            let tokens = try? renewer.renew(refreshToken: "RT1", session: "s1")
            results.withLock { $0.append(tokens?.refreshToken ?? "failed") }
        }
        #expect(results.withLock { $0 } == Array(repeating: "RT2", count: 8))
        #expect(tenant.sent.count == 1)
        #expect(renewer.renewalCount == 1)
        let form = try FormData(urlEncoded: tenant.sent[0].body)
        #expect(form["grant_type"] == "refresh_token")
        #expect(form["refresh_token"] == "RT1")
        #expect(form["client_id"] == "c")
    }

    @Test func aLateRequestWithTheOldTokenGetsTheSameResultNotAReplay() throws {
        let tenant = ScriptedHTTPClient { _ in
            HTTPClientResponse(
                status: 200, body: Array(#"{"access_token":"AT2","refresh_token":"RT2","expires_in":60}"#.utf8))
        }
        let renewer = try renewer(tenant)
        #expect(try renewer.renew(refreshToken: "RT1", session: "s1").accessToken == "AT2")
        #expect(try renewer.renew(refreshToken: "RT1", session: "s1").accessToken == "AT2")
        #expect(tenant.sent.count == 1)
    }

    /// The shared result lives only seconds, and only for its session: a copied older cookie
    /// replayed later (or under another session) reaches the tenant with its used token, which
    /// the tenant refuses, instead of being handed the new tokens.
    @Test func theResultIsSharedOnlyBrieflyAndOnlyWithinItsSession() throws {
        let tenant = ScriptedHTTPClient.numbered { call, _ in
            if call > 1 {
                return HTTPClientResponse(status: 403, body: Array(#"{"error":"invalid_grant"}"#.utf8))
            }
            return HTTPClientResponse(
                status: 200, body: Array(#"{"access_token":"AT2","refresh_token":"RT2","expires_in":86400}"#.utf8))
        }
        let time = ManualClock()
        let renewer = try renewer(tenant, clock: time.clock)
        #expect(try renewer.renew(refreshToken: "RT1", session: "s1").accessToken == "AT2")
        time.advance(TokenRenewer.resultGraceSeconds - 1)
        #expect(try renewer.renew(refreshToken: "RT1", session: "s1").accessToken == "AT2")  // a request in flight
        #expect(throws: AuthError(.refreshRefused, "403 invalid_grant")) {
            try renewer.renew(refreshToken: "RT1", session: "another")
        }
        time.advance(2)
        #expect(throws: AuthError(.refreshRefused, "403 invalid_grant")) {
            try renewer.renew(refreshToken: "RT1", session: "s1")
        }
        #expect(TokenRenewer.resultGraceSeconds <= 10)
    }

    /// Issue 49, M2: a rotation whose new cookie never reached the browser (nginx drops a mini
    /// app's check's `Set-Cookie` when the check refuses or the app answers an error) is followed
    /// from the spent token, on every worker sharing the ledger, long after the grace: the tenant
    /// is never handed a spent token, which it would take for theft and answer by revoking the
    /// whole family. Each rotation is followed, and the session's token is named in every result.
    @Test func aRotationTheBrowserNeverGotIsFollowedNotReplayed() throws {
        let spent = Lock<[String]>([])
        let tenant = ScriptedHTTPClient.numbered { call, request in
            let token = try FormData(urlEncoded: request.body)["refresh_token"] ?? ""
            let reused = spent.withLock { spent in
                defer { spent.append(token) }
                return spent.contains(token)
            }
            if reused { return HTTPClientResponse(status: 403, body: Array(#"{"error":"invalid_grant"}"#.utf8)) }
            return HTTPClientResponse(
                status: 200,
                body: Array(#"{"access_token":"AT\#(call + 1)","refresh_token":"RT\#(call + 1)","expires_in":60}"#.utf8)
            )
        }
        let time = ManualClock()
        let store = MemorySharedStore(clock: time.clock)
        let ledger = { () throws -> SessionLedger in
            try SessionLedger(
                store: store, retentionSeconds: 3600, secrets: [TestSettings.cookieSecret], clock: time.clock,
                events: NoAuth0Events())
        }
        let tokens = try TokenClient(settings: TestSettings.auth0, endpoints: TestSettings.endpoints, http: tenant)
        let first = TokenRenewer(tokens: tokens, clock: time.clock, ledger: try ledger())
        let second = TokenRenewer(tokens: tokens, clock: time.clock, ledger: try ledger())
        #expect(try first.renew(refreshToken: "RT1", session: "s1").refreshToken == "RT2")
        time.advance(TokenRenewer.resultGraceSeconds + 50)
        // The browser still holds RT1, on another worker, long after the grace.
        let followed = try second.renew(refreshToken: "RT1", session: "s1", for: ("https://api/", "read"))
        #expect(followed.refreshToken == "RT3" && followed.accessToken == "AT3")
        time.advance(600)
        #expect(try first.renew(refreshToken: "RT1", session: "s1").refreshToken == "RT4", "two rotations followed")
        #expect(spent.withLock { $0 } == ["RT1", "RT2", "RT3"], "each token spent once")
        // Another session's copy of RT1 is not handed this session's tokens.
        #expect(throws: AuthError(.refreshRefused, "403 invalid_grant")) {
            try second.renew(refreshToken: "RT1", session: "another")
        }
    }

    @Test func aRefusedRefreshTokenIsRefusedAndStaysRefused() throws {
        let tenant = ScriptedHTTPClient.json(
            403, #"{"error":"invalid_grant","error_description":"Unknown or invalid refresh token."}"#)
        let renewer = try renewer(tenant)
        for _ in 0..<2 {
            #expect(throws: AuthError(.refreshRefused, "403 invalid_grant")) {
                try renewer.renew(refreshToken: "RT", session: "s1")
            }
        }
        #expect(tenant.sent.count == 1)  // the answer about the token is kept; no second try
    }

    /// The tenant's trouble is not remembered: the next request asks again, and gets new tokens.
    @Test(arguments: [
        (503, #"{"error":"temporarily_unavailable"}"#, AuthError(.tenantUnavailable, "503 temporarily_unavailable")),
        (429, #"{"error":"too_many_requests"}"#, AuthError(.tenantUnavailable, "429 too_many_requests")),
        (0, "", AuthError(.tenantUnreachable, "timeout")),
        (401, #"{"error":"access_denied"}"#, AuthError(.refreshFailed, "401 access_denied")),
    ])
    func aFailureOfTheTenantIsTriedAgainOnTheNextRequest(status: Int, body: String, expected: AuthError) throws {
        let calls = Lock(0)
        let tenant = ScriptedHTTPClient { _ in
            let call = calls.withLock {
                $0 += 1
                return $0
            }
            if call == 1 {
                if status == 0 { throw HTTPClientError(.timeout, "t") }
                return HTTPClientResponse(status: status, body: Array(body.utf8))
            }
            return HTTPClientResponse(
                status: 200, body: Array(#"{"access_token":"AT2","refresh_token":"RT2","expires_in":86400}"#.utf8))
        }
        let renewer = try renewer(tenant)
        #expect(throws: expected) { try renewer.renew(refreshToken: "RT1", session: "s1") }
        #expect(try renewer.renew(refreshToken: "RT1", session: "s1").accessToken == "AT2")
        #expect(tenant.sent.count == 2)
    }
}
