import Auth0Web
import TestSupport
import Testing
import Web

/// The set-up command's Management API session keeps under the tenant's rate limit: a 429 is
/// waited out until `x-ratelimit-reset` and sent again, an answer with no call left makes the next
/// call wait for the reset, and a refused token or a missing scope is one line naming the setting.
@Suite struct ManagementSessionTests {
    let clock = ManualClock()

    /// The waits a session asked for.
    final class Waits { var seconds: [Double] = [] }

    static func answer(_ status: Int, _ body: String, remaining: Int = 5, reset: Double = 0) -> HTTPClientResponse {
        HTTPClientResponse(
            status: status,
            headers: [
                ("x-ratelimit-limit", "10"), ("x-ratelimit-remaining", String(remaining)),
                ("x-ratelimit-reset", String(Int64(reset))),
            ], body: Array(body.utf8))
    }

    static let token = HTTPClientResponse(
        status: 200,
        body: Array(#"{"access_token":"t","scope":"read:clients create:clients","token_type":"Bearer"}"#.utf8))

    /// A session over `http`, its waits recorded (each moving the clock on).
    func open(_ http: ScriptedHTTPClient, waits: Waits) throws -> ManagementSession {
        try ManagementSession(
            issuerBase: "https://tenant.example/", managementAudience: "https://tenant.example/api/v2/", clientID: "m",
            secret: "s", http: http, timeoutSeconds: 5, clock: clock.clock,
            wait: { seconds in
                waits.seconds.append(seconds)
                clock.advance(seconds)
            })
    }

    @Test func a429IsWaitedOutUntilItsResetAndSentAgain() throws {
        let now = clock.clock.now()
        let http = ScriptedHTTPClient.numbered { number, _ in
            switch number {
            case 1: Self.token
            case 2: Self.answer(429, #"{"statusCode":429}"#, remaining: 0, reset: now + 3)
            default: Self.answer(200, #"[{"client_id":"a"}]"#)
            }
        }
        let waits = Waits()
        let found = try open(http, waits: waits).get("clients")
        #expect(found?.array?.count == 1)
        #expect(waits.seconds == [3.05])
        #expect(http.sent.count == 3)
    }

    @Test func noCallLeftMakesTheNextCallWaitForTheReset() throws {
        let now = clock.clock.now()
        let http = ScriptedHTTPClient.numbered { number, _ in
            number == 1 ? Self.token : Self.answer(200, "{}", remaining: 0, reset: now + 2)
        }
        let waits = Waits()
        let session = try open(http, waits: waits)
        _ = try session.get("tenants/settings")
        #expect(waits.seconds.isEmpty)
        try session.send("PATCH", "tenants/settings", JSONValue.object([:]))
        #expect(waits.seconds == [2.05])
        #expect(session.writes == 1)
    }

    @Test func aRefusedTokenAndAMissingScopeNameTheSetting() throws {
        let refused = ScriptedHTTPClient.json(401, #"{"error":"access_denied","error_description":"Unauthorized"}"#)
        #expect(throws: ManagementSession.Failure.self) { try open(refused, waits: Waits()) }
        do {
            _ = try open(refused, waits: Waits())
        } catch {
            #expect("\(error)".hasPrefix("AUTH0_MANAGEMENT_CLIENT_ID or AUTH0_MANAGEMENT_CLIENT_SECRET"))
        }
        let http = ScriptedHTTPClient.numbered { number, _ in
            number == 1
                ? Self.token
                : Self.answer(
                    403,
                    #"{"statusCode":403,"error":"Forbidden","message":"Insufficient scope, expected any of: read:actions","errorCode":"insufficient_scope"}"#
                )
        }
        let session = try open(http, waits: Waits())
        #expect(throws: ManagementSession.Failure.self) { try session.require(["read:clients", "update:clients"]) }
        do { _ = try session.get("actions/actions") } catch {
            #expect("\(error)".contains("lacks the scope read:actions"))
        }
    }
}
