import Auth0Web
import Synchronization
import TestSupport
import Testing
import Web

@Suite struct ManagementClientTests {
    let clock = Clock { 1_700_000_000 }

    private func client(_ tenant: ScriptedHTTPClient) -> ManagementClient {
        ManagementClient(settings: TestSettings.auth0, http: tenant, clock: clock)
    }

    @Test func readSendsTheDocumentedRequest() throws {
        let tenant = ScriptedHTTPClient.json(
            200,
            #"{"user_metadata":{"personal_affirmation":"Believe in yourself!"},"app_metadata":{"display_announcement":true}}"#
        )
        let document = try client(tenant).readMetadata(userID: "auth0|123", accessToken: "AT")
        #expect(document.userMetadata["personal_affirmation"]?.string == "Believe in yourself!")
        let sent = try #require(tenant.sent.first)
        #expect(sent.method == "GET")
        #expect(
            sent.url
                == "https://tenant.example.com/api/v2/users/auth0%7C123?fields=user_metadata%2Capp_metadata&include_fields=true"
        )
        #expect(sent.headers.contains { $0.name == "Authorization" && $0.value == "Bearer AT" })
        #expect(sent.timeoutSeconds == 10)
    }

    @Test func saveSendsAPatchOfUserMetadataOnly() throws {
        let tenant = ScriptedHTTPClient.json(
            200, #"{"user_id":"auth0|123","user_metadata":{"personal_affirmation":"<b>hi</b> 🎉"}}"#)
        let document = try client(tenant).saveAffirmation("<b>hi</b> 🎉", userID: "auth0|123", accessToken: "AT")
        #expect(document.userMetadata["personal_affirmation"]?.string == "<b>hi</b> 🎉")
        let sent = try #require(tenant.sent.first)
        #expect(sent.method == "PATCH")
        #expect(sent.url == "https://tenant.example.com/api/v2/users/auth0%7C123")
        #expect(
            JSONValue.parse(sent.body) == .object(["user_metadata": .object(["personal_affirmation": "<b>hi</b> 🎉"])]))
        #expect(sent.headers.contains { $0.name == "Content-Type" && $0.value == "application/json" })
    }

    @Test(arguments: [
        (
            401, #"{"statusCode":401,"error":"Unauthorized","message":"Invalid token"}"#,
            ManagementError.Kind.unauthorized, nil as String?
        ),
        (401, #"{"statusCode":401,"error":"Unauthorized","message":"Bad audience: x"}"#, .unauthorized, nil),
        (
            403,
            #"{"statusCode":403,"error":"Forbidden","message":"Insufficient scope, expected any of: update:users,update:users_app_metadata,update:current_user_metadata","errorCode":"insufficient_scope"}"#,
            .forbidden, "insufficient_scope"
        ),
        (
            404,
            #"{"statusCode":404,"error":"Not Found","message":"The user does not exist.","errorCode":"inexistent_user"}"#,
            .notFound, "inexistent_user"
        ),
        (
            400,
            #"{"statusCode":400,"error":"Bad Request","message":"Payload validation error: 'x'.","errorCode":"invalid_body"}"#,
            .badRequest, "invalid_body"
        ),
        (500, #"{"statusCode":500,"error":"Internal Server Error","message":"Internal error"}"#, .serverError, nil),
        (503, "<html>upstream down</html>", .serverError, nil),
        (302, "", .badResponse, nil),
    ])
    func errorAnswersBecomeTypedErrors(status: Int, body: String, kind: ManagementError.Kind, code: String?) {
        do {
            _ = try client(.json(status, body)).readMetadata(userID: "auth0|1", accessToken: "AT")
            Issue.record("no error for \(status)")
        } catch let error as ManagementError {
            #expect(error.kind == kind)
            #expect(error.answerStatus == status)
            #expect(error.errorCode == code)
            // What the person is told: the API's own status for what they can act on, else 503.
            #expect(error.status == (status >= 500 || status == 302 ? 503 : status))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func rateLimitHonoursRetryAfterThenTheResetHeader() {
        let body =
            #"{"statusCode":429,"error":"Too Many Requests","message":"Too many requests","errorCode":"too_many_requests"}"#
        let withRetry = ScriptedHTTPClient.json(
            429, body, headers: [("retry-after", "7"), ("x-ratelimit-reset", "1700000050")])
        let withReset = ScriptedHTTPClient.json(429, body, headers: [("x-ratelimit-reset", "1700000020")])
        for (tenant, seconds) in [(withRetry, 7), (withReset, 20)] {
            #expect(
                throws: ManagementError(
                    .rateLimited, status: 429, errorCode: "too_many_requests", retryAfterSeconds: seconds)
            ) {
                try client(tenant).readMetadata(userID: "u", accessToken: "AT")
            }
        }
        // A reset header no integer can hold is clamped, not a crash (review 2, item 4).
        for (reset, seconds) in [("1e300", 3600), ("-1e300", 1), ("inf", 3600)] {
            let absurd = ScriptedHTTPClient.json(429, body, headers: [("x-ratelimit-reset", reset)])
            var wait: Int?
            do { _ = try client(absurd).readMetadata(userID: "u", accessToken: "AT") } catch let error
                as ManagementError
            {
                wait = error.retryAfterSeconds
            } catch {}
            #expect(wait == (reset == "inf" ? nil : seconds), "\(reset)")
        }
        let busy = ManagementError(.rateLimited, status: 429, retryAfterSeconds: 20)
        #expect(busy.wordsKey == "save.rate_limited_wait")
        #expect(busy.wordsArguments == ["seconds": "20"])
    }

    @Test func timeoutsAndRefusedConnectionsAreTyped() {
        let slow = ScriptedHTTPClient { _ in throw HTTPClientError(.timeout, "Timeout was reached") }
        let down = ScriptedHTTPClient { _ in throw HTTPClientError(.connect, "Couldn't connect") }
        #expect(throws: ManagementError(.timeout)) { try client(slow).readMetadata(userID: "u", accessToken: "AT") }
        #expect(throws: ManagementError(.unreachable)) { try client(down).readMetadata(userID: "u", accessToken: "AT") }
    }

    @Test func badJSONIsABadResponse() {
        #expect(throws: ManagementError(.badResponse)) {
            try client(.json(200, "not json")).readMetadata(userID: "u", accessToken: "AT")
        }
        #expect(throws: ManagementError(.badResponse)) {
            try client(.json(200, "[1,2]")).readMetadata(userID: "u", accessToken: "AT")
        }
    }
}
