import FoundationEssentials
import Locking
public import Web

/// A machine-to-machine session with the tenant's Management API, for setting the tenant up:
/// its token (client credentials), its scopes, and calls that keep under the tenant's rate limit
/// (waiting for `x-ratelimit-reset` when none is left, and after a 429), counting every write.
/// Used by one command at a time, on one thread.
public final class ManagementSession {
    /// Why a call failed, as one line naming what to change.
    public struct Failure: Error, CustomStringConvertible {
        /// The line.
        public let description: String

        /// A failure said by `description`.
        public init(description: String) { self.description = description }
    }

    private let base: String
    private let token: String
    /// The scopes the token was granted.
    public let scopes: Set<String>
    private let http: any HTTPClient
    private let timeoutSeconds: Double
    private let clock: Clock
    private let wait: (Double) -> Void
    /// Write calls made (POST, PATCH, PUT).
    public private(set) var writes = 0
    private var remaining: Int?
    private var reset: Double?

    /// The most a 429 is waited out, and how many times in a row.
    static let longestWait = 60.0
    static let retries = 5

    /// Asks `issuerBase`'s token endpoint for a Management API token (`managementAudience`) with
    /// the management application's credentials; fails naming the settings when refused.
    public init(
        issuerBase: String, managementAudience: String, clientID: String, secret: String, http: any HTTPClient,
        timeoutSeconds: Double, clock: Clock = .system,
        wait: @escaping (Double) -> Void = { Threads.sleep(seconds: $0) }
    ) throws(Failure) {
        self.base = managementAudience
        self.http = http
        self.timeoutSeconds = timeoutSeconds
        self.clock = clock
        self.wait = wait
        let body: JSONValue = .object([
            "grant_type": "client_credentials", "client_id": .string(clientID), "client_secret": .string(secret),
            "audience": .string(managementAudience),
        ])
        let answer: HTTPClientResponse
        do {
            answer = try http.send(
                HTTPClientRequest(
                    method: "POST", url: issuerBase + "oauth/token", headers: [("Content-Type", "application/json")],
                    body: body.serialized(), timeoutSeconds: timeoutSeconds))
        } catch {
            throw Failure(description: "AUTH0_DOMAIN: the token endpoint could not be reached (\(error))")
        }
        let json = JSONValue.parse(answer.body)
        if answer.status == 429 || answer.status >= 500 {
            throw Failure(
                description: "AUTH0_DOMAIN: the token endpoint answered \(answer.status); try again in a moment")
        }
        guard answer.status == 200, let token = json?["access_token"]?.string else {
            let why = json?["error_description"]?.string ?? json?["error"]?.string ?? "status \(answer.status)"
            throw Failure(
                description:
                    "AUTH0_MANAGEMENT_CLIENT_ID or AUTH0_MANAGEMENT_CLIENT_SECRET: the tenant refused them (\(why)); "
                    + "the management application needs a grant for the Auth0 Management API")
        }
        self.token = token
        scopes = Set((json?["scope"]?.string ?? "").split(separator: " ").map(String.init))
    }

    /// Fails naming the first of `needed` the token lacks.
    public func require(_ needed: [String]) throws(Failure) {
        guard let missing = needed.first(where: { !scopes.contains($0) }) else { return }
        throw Failure(description: Self.lacking(missing))
    }

    static func lacking(_ scope: String) -> String {
        "AUTH0_MANAGEMENT_CLIENT_ID: the management application lacks the scope \(scope) (Applications > APIs > "
            + "Auth0 Management API > Machine To Machine Applications: tick \(scope))"
    }

    /// `GET path` (under `/api/v2/`, its query encoded); nil when the tenant has no such object (404).
    public func get(_ path: String) throws(Failure) -> JSONValue? {
        try call("GET", path, nil, absentIsNil: true)
    }

    /// `POST`, `PATCH` or `PUT` of `body` to `path`: the answer's document (null for none).
    @discardableResult
    public func send(_ method: String, _ path: String, _ body: JSONValue) throws(Failure) -> JSONValue {
        writes += 1
        return try call(method, path, body, absentIsNil: false) ?? .null
    }

    private func call(_ method: String, _ path: String, _ body: JSONValue?, absentIsNil: Bool) throws(Failure)
        -> JSONValue?
    {
        for attempt in 0...Self.retries {
            keepUnderTheLimit()
            var headers: [(name: String, value: String)] = [
                ("Authorization", "Bearer " + token), ("Accept", "application/json"),
            ]
            if body != nil { headers.append(("Content-Type", "application/json")) }
            let answer: HTTPClientResponse
            do {
                answer = try http.send(
                    HTTPClientRequest(
                        method: method, url: base + path, headers: headers, body: body?.serialized() ?? [],
                        timeoutSeconds: timeoutSeconds))
            } catch {
                throw Failure(description: "AUTH0_DOMAIN: the Management API could not be reached (\(error))")
            }
            remaining = answer.header("x-ratelimit-remaining").flatMap { Int($0) }
            reset = answer.header("x-ratelimit-reset").flatMap { Double($0) }
            if answer.status == 429, attempt < Self.retries {
                remaining = 0
                continue
            }
            if answer.status == 404, absentIsNil { return nil }
            let json = JSONValue.parse(answer.body)
            guard (200...299).contains(answer.status) else {
                let message = json?["message"]?.string ?? "status \(answer.status)"
                if json?["errorCode"]?.string == "insufficient_scope",
                    let scope = message.components(separatedBy: "expected any of: ").last
                {
                    throw Failure(description: Self.lacking(scope))
                }
                throw Failure(
                    description: "AUTH0: \(method) /api/v2/\(Self.pathOnly(path)) answered \(answer.status): \(message)"
                )
            }
            return json ?? .null
        }
        throw Failure(description: "AUTH0: the Management API's rate limit did not lift")
    }

    /// Waits for the rate limit's reset when the last answer said no call is left.
    private func keepUnderTheLimit() {
        guard remaining == 0, let reset else { return }
        let seconds = min(Self.longestWait, reset - clock.now())
        if seconds > 0 { wait(seconds + 0.05) }
        remaining = nil
    }

    private static func pathOnly(_ path: String) -> Substring { path.split(separator: "?").first ?? "" }
}
