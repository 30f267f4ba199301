import Foundation
import Locking
import Web

/// HTTP between responders in this process: each origin (`http://127.0.0.1:port`) is answered
/// by a `Responder` instead of a socket. The product's outbound calls and a `TestClient` both
/// send through it, so the dev tenant and the product meet as they do over loopback, with each
/// call's time limit kept (an answer later than it is a timeout, as libcurl reports one).
final class InProcessNetwork: HTTPClient, @unchecked Sendable {
    /// One request a responder answered.
    struct Exchange {
        let origin: String
        let method: String
        let path: String
        let status: Int
    }

    private let hosts = Lock<[String: any Responder]>([:])
    private let exchanges = Lock<[Exchange]>([])

    /// Answers requests to `origin` with `responder` from now on (replacing any before it).
    func serve(_ origin: String, with responder: any Responder) { hosts.withLock { $0[origin] = responder } }

    /// Stops answering every origin.
    func closeAll() { hosts.withLock { $0 = [:] } }

    /// The requests answered so far for `origin`.
    func answered(by origin: String) -> [Exchange] { exchanges.withLock { $0.filter { $0.origin == origin } } }

    func send(_ request: HTTPClientRequest) throws -> HTTPClientResponse {
        guard let url = URLComponents(string: request.url), let scheme = url.scheme, let host = url.host,
            let port = url.port
        else { throw HTTPClientError(.other, "not an absolute URL: \(request.url)") }
        let origin = "\(scheme)://\(host):\(port)"
        guard let responder = hosts.withLock({ $0[origin] }) else {
            throw HTTPClientError(.connect, "nothing answers at \(origin)")
        }
        var headers: HeaderFields = ["host": "\(host):\(port)"]
        for (name, value) in request.headers { headers[name.lowercased()] = value }
        let path = url.percentEncodedPath.isEmpty ? "/" : url.percentEncodedPath
        var incoming = Request(
            method: request.method, path: path, query: url.percentEncodedQuery ?? "", headers: headers,
            body: request.body, requestID: UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased())
        incoming.remoteAddress = "127.0.0.1"
        let response = try answer(incoming, with: responder, within: request.timeoutSeconds, url: request.url)
        exchanges.withLock {
            $0.append(Exchange(origin: origin, method: request.method, path: path, status: response.status))
        }
        guard response.body.count <= request.maxResponseBytes else {
            throw HTTPClientError(.tooLarge, "\(request.url) answered more than \(request.maxResponseBytes) bytes")
        }
        return HTTPClientResponse(
            status: response.status, headers: response.allHeaders.map { ($0.name.lowercased(), $0.value) },
            body: response.body)
    }

    /// The responder's answer, on a thread of its own so that one slower than `seconds` is a
    /// timeout for the caller (the answer is then dropped, as a closed connection drops it).
    private func answer(_ request: Request, with responder: any Responder, within seconds: Double, url: String)
        throws -> Response
    {
        let answered = Lock<Response?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let response = responder.respond(to: request)
            answered.withLock { $0 = response }
            done.signal()
        }
        guard done.wait(timeout: .now() + seconds) == .success, let response = answered.withLock({ $0 }) else {
            throw HTTPClientError(.timeout, "\(url) gave no answer within \(seconds) s")
        }
        return response
    }
}
