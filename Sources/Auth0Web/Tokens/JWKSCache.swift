import OpenSSLCrypto
import Synchronization
import Web

/// The tenant's signing keys by `kid`, fetched from its JWKS and cached. An unknown `kid`
/// fetches the set again (keys rotate), at most once a minute.
public final class JWKSCache: Sendable {
    private struct State {
        var keys: [String: RSAPublicKey] = [:]
        var lastFetch: Double = -.infinity
        var fetches = 0
    }

    private let url: String
    private let http: any HTTPClient
    private let clock: Clock
    private let timeoutSeconds: Double
    private let state = Mutex(State())
    /// Serialises fetches so a burst of unknown `kid`s fetches once.
    private let fetchLock = Mutex(())
    /// The least time between two fetches, in seconds: an unknown `kid` cannot make it fetch more often.
    public static let refetchInterval: Double = 60

    /// A cache of the JWKS at `url`, fetched within `timeoutSeconds`.
    public init(url: String, http: any HTTPClient, clock: Clock, timeoutSeconds: Double) {
        self.url = url
        self.http = http
        self.clock = clock
        self.timeoutSeconds = timeoutSeconds
    }

    /// How many times the set was fetched (for metrics and tests).
    public var fetchCount: Int { state.withLock { $0.fetches } }

    /// The key for `kid`, fetching the set when it is unknown and the last fetch is old enough.
    public func key(for kid: String) throws(AuthError) -> RSAPublicKey? {
        if let key = state.withLock({ $0.keys[kid] }) { return key }
        return try fetchLock.withLock { _ throws(AuthError) in
            let (cached, last) = state.withLock { ($0.keys[kid], $0.lastFetch) }
            if let cached { return cached }
            guard clock.now() - last >= JWKSCache.refetchInterval else { return nil }
            let keys = try fetch()
            return state.withLock {
                $0.keys = keys
                $0.lastFetch = clock.now()
                $0.fetches += 1
                return $0.keys[kid]
            }
        }
    }

    private func fetch() throws(AuthError) -> [String: RSAPublicKey] {
        let response: HTTPClientResponse
        do {
            response = try http.send(HTTPClientRequest(method: "GET", url: url, timeoutSeconds: timeoutSeconds))
        } catch {
            throw AuthError(.jwksUnavailable, "the tenant's JWKS could not be reached")
        }
        guard response.status == 200, let document = JSONValue.parse(response.body), let list = document["keys"]?.array
        else { throw AuthError(.jwksUnavailable, "the tenant's JWKS answered \(response.status)") }
        var keys: [String: RSAPublicKey] = [:]
        for entry in list {
            guard entry["kty"]?.string == "RSA", entry["use"]?.string ?? "sig" == "sig",
                entry["alg"]?.string ?? "RS256" == "RS256", let kid = entry["kid"]?.string,
                let n = entry["n"]?.string.flatMap(Base64URL.decode),
                let e = entry["e"]?.string.flatMap(Base64URL.decode),
                let key = try? RSAPublicKey(modulus: n, exponent: e)
            else { continue }
            keys[kid] = key
        }
        return keys
    }
}
