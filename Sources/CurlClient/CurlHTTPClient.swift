internal import CCurl
import FoundationEssentials
import PerThread
import Web

/// The `HTTPClient` over libcurl: one easy handle per thread, kept for the thread's life so
/// connections to the tenant are reused; timeouts on every call; TLS always verified.
public final class CurlHTTPClient: HTTPClient, @unchecked Sendable {
    // @unchecked: the only state is per-thread (thread-local handles) plus immutable settings.
    private let connectTimeoutSeconds: Double
    private let handles = ThreadLocal { try CurlEasyHandle() }

    /// Initialises libcurl once for the process.
    private static let globalInit: Void = { curl_global_init(Int(CURL_GLOBAL_DEFAULT)) }()

    /// - Parameter connectTimeoutSeconds: the limit for opening a connection.
    public init(connectTimeoutSeconds: Double = 3) {
        _ = CurlHTTPClient.globalInit
        self.connectTimeoutSeconds = connectTimeoutSeconds
    }

    /// Sends `request` on this thread's kept handle; throws `HTTPClientError` when no answer came.
    public func send(_ request: HTTPClientRequest) throws -> HTTPClientResponse {
        try handle().perform(request, connectTimeoutSeconds: connectTimeoutSeconds)
    }

    /// How many connections the calling thread's last call opened: 0 when it reused one.
    package func connectionsOpenedByLastCallOnThisThread() throws -> Int { try handle().connectionsOpenedByLastCall() }

    private func handle() throws -> CurlEasyHandle { try handles.value() }
}
