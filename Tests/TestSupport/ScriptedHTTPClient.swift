import Locking
import Web

/// An HTTP client that answers from a script and records what was sent: the tenant of tests
/// that run without sockets. With no script, every call fails as a refused connection would.
public final class ScriptedHTTPClient: HTTPClient {
    private let requests = Lock<[HTTPClientRequest]>([])
    private let answer: @Sendable (HTTPClientRequest) throws -> HTTPClientResponse

    /// A client whose every call is answered by `answer`.
    public init(
        _ answer: @escaping @Sendable (HTTPClientRequest) throws -> HTTPClientResponse = { _ in
            throw HTTPClientError(.connect, "no tenant in this test")
        }
    ) {
        self.answer = answer
    }

    /// A client that answers every call with one JSON body.
    public static func json(_ status: Int, _ body: String, headers: [(name: String, value: String)] = [])
        -> ScriptedHTTPClient
    {
        ScriptedHTTPClient { _ in HTTPClientResponse(status: status, headers: headers, body: Array(body.utf8)) }
    }

    /// A client whose calls are answered by `answer` with their number, from 1.
    public static func numbered(
        _ answer: @escaping @Sendable (Int, HTTPClientRequest) throws -> HTTPClientResponse
    ) -> ScriptedHTTPClient {
        let calls = Lock(0)
        return ScriptedHTTPClient { request in
            let number = calls.withLock {
                $0 += 1
                return $0
            }
            return try answer(number, request)
        }
    }

    /// Every request sent so far, in order.
    public var sent: [HTTPClientRequest] { requests.withLock { $0 } }

    /// Records the request and answers from the script.
    public func send(_ request: HTTPClientRequest) throws -> HTTPClientResponse {
        requests.withLock { $0.append(request) }
        return try answer(request)
    }
}
