import Locking
import OpenSSLCrypto
import Web

/// The provider's signing keys, fetched from its JWKS and cached.
///
/// A token names its key by `kid`; one without `kid` is checked with the set's only signing key
/// (a set of several gives no way to choose, and the token is refused). A `kid` the cache does not
/// know means the provider rotated its keys: the set is fetched again at once, so the first login
/// after a rotation works. Made-up `kid`s cannot turn that into a flood of fetches: fetches are
/// one at a time and spend from a bucket of `refetchBurst`, refilled by one every
/// `refillSeconds`; an empty bucket means the token is refused without asking the provider.
public final class JWKSCache: Sendable {
    private struct State {
        var named: [String: RSAPublicKey] = [:]
        var unnamed: [RSAPublicKey] = []
        var fetched = false
        var fetches = 0
        var bucket = Double(JWKSCache.refetchBurst)
        var bucketTime: Double = -.infinity

        /// The set's one signing key, when it has exactly one.
        var onlyKey: RSAPublicKey? {
            named.count + unnamed.count == 1 ? named.values.first ?? unnamed.first : nil
        }

        func key(for kid: String?) -> RSAPublicKey? {
            if let kid { return named[kid] }
            return onlyKey
        }
    }

    private let url: String
    private let http: any HTTPClient
    private let clock: Clock
    private let timeoutSeconds: Double
    private let state = Lock(State())
    /// Serialises fetches so a burst of unknown `kid`s fetches once.
    private let fetchLock = Lock(())
    /// How many fetches may happen back to back.
    public static let refetchBurst = 5
    /// Seconds for the bucket to regain one fetch: past the burst, at most 5 fetches a minute.
    public static let refillSeconds: Double = 12

    /// A cache of the JWKS at `url`, fetched within `timeoutSeconds`.
    public init(url: String, http: any HTTPClient, clock: Clock, timeoutSeconds: Double) {
        self.url = url
        self.http = http
        self.clock = clock
        self.timeoutSeconds = timeoutSeconds
    }

    /// How many times the set was fetched (for metrics and tests).
    public var fetchCount: Int { state.withLock { $0.fetches } }

    /// The key for `kid` (or, with no `kid`, the set's only key), fetching the set when the cache
    /// cannot answer and the bucket allows; nil when the provider has no such key.
    public func key(for kid: String?) throws(AuthError) -> RSAPublicKey? {
        if let key = state.withLock({ $0.key(for: kid) }) { return key }
        return try fetchLock.withLock { _ throws(AuthError) in
            // Another caller may have fetched while this one waited.
            if let key = state.withLock({ $0.key(for: kid) }) { return key }
            // Without a kid, a set already known to hold several keys will not hold one after a fetch.
            if kid == nil, state.withLock({ $0.fetched }) { return nil }
            guard spendFetch() else { return nil }
            let (named, unnamed) = try fetch()
            return state.withLock {
                $0.named = named
                $0.unnamed = unnamed
                $0.fetched = true
                $0.fetches += 1
                return $0.key(for: kid)
            }
        }
    }

    /// Takes one fetch from the bucket, after refilling it for the time gone by.
    private func spendFetch() -> Bool {
        let now = clock.now()
        return state.withLock {
            let burst = Double(JWKSCache.refetchBurst)
            let regained = $0.bucketTime.isFinite ? (now - $0.bucketTime) / JWKSCache.refillSeconds : burst
            $0.bucket = min(burst, $0.bucket + max(0, regained))
            $0.bucketTime = now
            guard $0.bucket >= 1 else { return false }
            $0.bucket -= 1
            return true
        }
    }

    private func fetch() throws(AuthError) -> (named: [String: RSAPublicKey], unnamed: [RSAPublicKey]) {
        let response: HTTPClientResponse
        do {
            response = try http.send(HTTPClientRequest(method: "GET", url: url, timeoutSeconds: timeoutSeconds))
        } catch {
            throw AuthError(.jwksUnavailable, "the provider's JWKS could not be reached")
        }
        guard response.status == 200, let document = JSONValue.parse(response.body), let list = document["keys"]?.array
        else { throw AuthError(.jwksUnavailable, "the provider's JWKS answered \(response.status)") }
        var named: [String: RSAPublicKey] = [:]
        var unnamed: [RSAPublicKey] = []
        // Only RSA signing keys for RS256: an encryption key or another algorithm's is not a
        // candidate, so it neither verifies a token nor makes a lone signing key ambiguous.
        for entry in list {
            guard entry["kty"]?.string == "RSA", entry["use"]?.string ?? "sig" == "sig",
                entry["alg"]?.string ?? "RS256" == "RS256",
                let n = entry["n"]?.string.flatMap(Base64URL.decode),
                let e = entry["e"]?.string.flatMap(Base64URL.decode),
                let key = try? RSAPublicKey(modulus: n, exponent: e)
            else { continue }
            if let kid = entry["kid"]?.string {
                named[kid] = key
            } else {
                unnamed.append(key)
            }
        }
        return (named, unnamed)
    }
}
