import Web

/// Calls the Management API's user endpoints with the person's own access token.
public struct ManagementClient: Sendable {
    private let baseURL: String
    private let http: any HTTPClient
    private let timeoutSeconds: Double
    private let clock: Clock

    /// False with a provider that is not Auth0: it has no Management API, so no metadata.
    public let isOffered: Bool

    /// A client of the settings' Management API, with their timeout.
    public init(settings: RelyingPartySettings, http: any HTTPClient, clock: Clock) {
        baseURL = settings.managementAPI
        isOffered = settings.provider.dialect.hasManagementAPI
        self.http = http
        timeoutSeconds = settings.provider.timeoutSeconds
        self.clock = clock
    }

    /// `GET /api/v2/users/{id}?fields=user_metadata,app_metadata&include_fields=true`.
    public func readMetadata(userID: String, accessToken: String) throws -> UserMetadataDocument {
        let url = userURL(userID) + "?fields=user_metadata%2Capp_metadata&include_fields=true"
        return try document(from: send("GET", url, accessToken: accessToken, body: []))
    }

    /// `PATCH /api/v2/users/{id}` with `{"user_metadata":{"personal_affirmation":"…"}}`.
    public func saveAffirmation(_ text: String, userID: String, accessToken: String) throws -> UserMetadataDocument {
        let body: JSONValue = .object(["user_metadata": .object(["personal_affirmation": .string(text)])])
        return try document(from: send("PATCH", userURL(userID), accessToken: accessToken, body: body.serialized()))
    }

    private func userURL(_ userID: String) -> String { baseURL + "users/" + PercentEncoding.encode(userID) }

    private func send(_ method: String, _ url: String, accessToken: String, body: [UInt8]) throws -> HTTPClientResponse
    {
        var headers: [(name: String, value: String)] = [
            ("Authorization", "Bearer " + accessToken), ("Accept", "application/json"),
        ]
        if !body.isEmpty { headers.append(("Content-Type", "application/json")) }
        let request = HTTPClientRequest(
            method: method, url: url, headers: headers, body: body, timeoutSeconds: timeoutSeconds)
        let response: HTTPClientResponse
        do {
            response = try http.send(request)
        } catch let error as HTTPClientError {
            switch error.kind {
            case .timeout: throw ManagementError(.timeout)
            case .tooLarge: throw ManagementError(.badResponse)
            case .connect, .other: throw ManagementError(.unreachable)
            }
        }
        guard response.status == 200 else { throw ManagementError(response: response, now: clock.now()) }
        return response
    }

    private func document(from response: HTTPClientResponse) throws -> UserMetadataDocument {
        guard let json = JSONValue.parse(response.body), json.object != nil else { throw ManagementError(.badResponse) }
        return UserMetadataDocument(
            userMetadata: json["user_metadata"] ?? .object([:]), appMetadata: json["app_metadata"] ?? .object([:]))
    }
}
