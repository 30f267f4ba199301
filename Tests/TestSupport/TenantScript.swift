import Auth0Web
import Locking
import Web

/// A tenant for socket-free tests of logins and saves, answering as `shared/auth0-api.md` says
/// Auth0 does: the token endpoint (an ID token signed by `TestKeys.shared` for the nonce the
/// test sets), the JWKS, and the Management API's user (read and `PATCH`). What it answers can
/// be changed between requests; every request is recorded.
public final class TenantScript: HTTPClient {
    /// What the tenant answers.
    public struct Answers: Sendable {
        /// The nonce the ID token carries (the transaction's).
        public var nonce = ""
        /// `expires_in` of access tokens.
        public var accessTokenSeconds = 86_400
        /// Whether refresh tokens are issued (no `offline_access`: none); they rotate, `RT1`, `RT2`, …
        public var issuesRefreshTokens = true
        /// The status of the token endpoint (200, or an error with an OAuth error body).
        public var tokenStatus = 200
        /// The OAuth error name of a failing token endpoint.
        public var tokenError = "invalid_grant"
        /// The status of the Management API, and its headers (429's `Retry-After`, say).
        public var managementStatus = 200
        /// Headers of a failing Management API answer.
        public var managementHeaders: [(name: String, value: String)] = []
        /// The person's metadata.
        public var affirmation = "Believe in yourself!"
        /// A raw body the Management API answers instead (a hostile or broken tenant).
        public var managementBody: String?
        /// The person's `app_metadata`.
        public var appMetadata: [String: JSONValue] = [:]
        /// More claims of the ID token (what an Auth0 Action adds, such as a roles claim).
        public var extraClaims: [String: JSONValue] = [:]

        /// The answers of a tenant in good health.
        public init() {}
    }

    /// The ID token's `iat`; tests run their clock from here.
    public static let now: Double = 1_700_000_000
    private let state = Lock(Answers())
    private let issued = Lock(0)
    private let requests = Lock<[HTTPClientRequest]>([])
    private let issuer: String
    private let clientID: String

    /// A tenant at `issuer` for the application `clientID`.
    public init(issuer: String = TestSettings.auth0.issuer, clientID: String = TestSettings.auth0.client.id) {
        self.issuer = issuer
        self.clientID = clientID
    }

    /// Changes what the tenant answers from now on.
    public func change(_ body: (inout Answers) -> Void) { state.withLock { body(&$0) } }

    /// Every request sent so far, in order.
    public var sent: [HTTPClientRequest] { requests.withLock { $0 } }

    /// The requests sent to `path` (e.g. `oauth/token`).
    public func sent(to path: String) -> [HTTPClientRequest] { sent.filter { $0.url.hasPrefix(issuer + path) } }

    /// Answers as the tenant; an address it does not script is refused.
    public func send(_ request: HTTPClientRequest) throws -> HTTPClientResponse {
        requests.withLock { $0.append(request) }
        let answers = state.withLock { $0 }
        if request.url.hasSuffix("/.well-known/jwks.json") { return try TestKeys.shared.send(request) }
        if request.url == issuer + "oauth/token" {
            let form = try? FormData(urlEncoded: request.body)
            if let audience = form?["audience"] { return try apiToken(audience: audience, scope: form?["scope"] ?? "") }
            return try token(answers)
        }
        if request.url.hasPrefix(issuer + "api/v2/users/") { return management(request, answers) }
        throw HTTPClientError(.connect, "no such endpoint in this script: \(request.url)")
    }

    /// A refresh for another API (Auth0's Multi-Resource Refresh Token): a JWT for it with the
    /// scopes asked, and the refresh token rotated.
    private func apiToken(audience: String, scope: String) throws -> HTTPClientResponse {
        let token = try TestKeys.shared.token(claims: [
            "iss": .string(issuer), "sub": "auth0|1", "aud": .string(audience), "iat": .number(Self.now),
            "exp": .number(Self.now + 86_400), "scope": .string(scope),
        ])
        let number = issued.withLock {
            $0 += 1
            return $0
        }
        let body: JSONValue = .object([
            "access_token": .string(token), "token_type": "Bearer", "expires_in": .number(86_400),
            "scope": .string(scope),
            "refresh_token": .string("RT\(number)"),
        ])
        return HTTPClientResponse(status: 200, body: body.serialized())
    }

    private func token(_ answers: Answers) throws -> HTTPClientResponse {
        guard answers.tokenStatus == 200 else {
            let body: JSONValue = .object(["error": .string(answers.tokenError), "error_description": "scripted"])
            return HTTPClientResponse(status: answers.tokenStatus, body: body.serialized())
        }
        let claims: [String: JSONValue] = [
            "iss": .string(issuer), "sub": "auth0|1", "aud": .string(clientID), "iat": .number(Self.now),
            "exp": .number(Self.now + 36_000), "nonce": .string(answers.nonce), "name": "Skippy",
            "email": "skippy@example.com", "sid": "sid-1",
        ]
        let idToken = try TestKeys.shared.token(claims: claims.merging(answers.extraClaims) { $1 })
        var body: [String: JSONValue] = [
            "access_token": .string("AT-\(Int.random(in: 0..<1_000_000))"), "id_token": .string(idToken),
            "token_type": "Bearer", "expires_in": .number(Double(answers.accessTokenSeconds)),
        ]
        if answers.issuesRefreshTokens {
            let number = issued.withLock {
                $0 += 1
                return $0
            }
            body["refresh_token"] = .string("RT\(number)")
        }
        return HTTPClientResponse(status: 200, body: JSONValue.object(body).serialized())
    }

    private func management(_ request: HTTPClientRequest, _ answers: Answers) -> HTTPClientResponse {
        if let raw = answers.managementBody { return HTTPClientResponse(status: 200, body: Array(raw.utf8)) }
        guard answers.managementStatus == 200 else {
            let body: JSONValue = .object([
                "statusCode": .number(Double(answers.managementStatus)), "error": "Scripted", "message": "scripted",
            ])
            return HTTPClientResponse(
                status: answers.managementStatus, headers: answers.managementHeaders, body: body.serialized())
        }
        var affirmation = answers.affirmation
        if request.method == "PATCH",
            let saved = JSONValue.parse(request.body)?["user_metadata"]?["personal_affirmation"]?.string
        {
            affirmation = saved
            state.withLock { $0.affirmation = saved }
        }
        let body: JSONValue = .object([
            "user_metadata": .object(["personal_affirmation": .string(affirmation)]),
            "app_metadata": .object(answers.appMetadata),
        ])
        return HTTPClientResponse(status: 200, body: body.serialized())
    }
}
