import Auth0Web
import MetadataDemoApp
import Synchronization
import Web

/// An HTTP client that answers from a list of handlers and records what was sent; for pages
/// tested without a tenant. Unexpected calls fail as a refused connection would.
final class ScriptedHTTPClient: HTTPClient {
    private let requests = Mutex<[HTTPClientRequest]>([])
    private let answer: @Sendable (HTTPClientRequest) throws -> HTTPClientResponse

    init(
        _ answer: @escaping @Sendable (HTTPClientRequest) throws -> HTTPClientResponse = { _ in
            throw HTTPClientError(.connect, "no tenant in this test")
        }
    ) {
        self.answer = answer
    }

    var sent: [HTTPClientRequest] { requests.withLock { $0 } }

    func send(_ request: HTTPClientRequest) throws -> HTTPClientResponse {
        requests.withLock { $0.append(request) }
        return try answer(request)
    }
}

enum TestServices {
    static let environment = [
        "AUTH0_DOMAIN": "tenant.example.com", "AUTH0_CLIENT_ID": "client-1", "AUTH0_CLIENT_SECRET": "s3cret",
        "AUTH0_SECRET": String(repeating: "x", count: 40), "APP_BASE_URL": "https://demo.example.com",
    ]

    static func make(http: any HTTPClient = ScriptedHTTPClient(), clock: Clock = .system) throws -> AppServices {
        try AppServices(settings: Auth0Settings(environment: environment), http: http, clock: clock)
    }
}
