import Locking
import OpenSSLCrypto
import Web

/// The provider's signing keys, fetched from its JWKS and cached.
///
/// A token names its key by `kid`; one without `kid` may have been signed by any key of the
/// kind its algorithm uses, and each is tried. A `kid` the cache does not know, or a kid-less
/// token none of the cached keys verifies, means the provider may have rotated its keys: the
/// set is fetched again at once, so the first login after a rotation works. Made-up tokens
/// cannot turn that into a flood of fetches: fetches are one at a time and spend from a bucket
/// of `refetchBurst`, refilled by one every `refillSeconds`; an empty bucket means the token is
/// refused without asking the provider.
public final class JWKSCache: Sendable {
    private struct State {
        var named: [String: TenantKey] = [:]
        var unnamed: [TenantKey] = []
        var fetches = 0
        var bucket = Double(JWKSCache.refetchBurst)
        var bucketTime: Double = -.infinity

        /// The keys a token signed with `algorithm` may name (`kid`), or may have used without one.
        func candidates(_ kid: String?, _ algorithm: SigningAlgorithm) -> [TenantKey] {
            if let kid { return named[kid].map { $0.fits(algorithm) ? [$0] : [] } ?? [] }
            return (Array(named.values) + unnamed).filter { $0.fits(algorithm) }
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

    /// The keys a token signed with `algorithm` may have used: the one named `kid` (when it is
    /// of the algorithm's kind), or without `kid` every key of that kind. Fetches the set when
    /// the cache has none and the bucket allows; empty when the provider has none.
    public func candidates(kid: String?, for algorithm: SigningAlgorithm) throws(AuthError) -> [TenantKey] {
        let cached = state.withLock { $0.candidates(kid, algorithm) }
        if !cached.isEmpty { return cached }
        return try fetched(kid: kid, for: algorithm, again: false)
    }

    /// The candidates after fetching the set again (bucket permitting): for a kid-less token
    /// that none of the cached keys verified, which a rotation may explain.
    public func candidatesAfterRefetch(for algorithm: SigningAlgorithm) throws(AuthError) -> [TenantKey] {
        try fetched(kid: nil, for: algorithm, again: true)
    }

    private func fetched(kid: String?, for algorithm: SigningAlgorithm, again: Bool) throws(AuthError) -> [TenantKey] {
        let fetchesBefore = state.withLock { $0.fetches }
        return try fetchLock.withLock { _ throws(AuthError) in
            // Another caller may have fetched while this one waited: its set is as new as ours would be.
            let fetchedMeanwhile = state.withLock { $0.fetches } != fetchesBefore
            let cached = state.withLock { $0.candidates(kid, algorithm) }
            if fetchedMeanwhile || (!again && !cached.isEmpty) { return cached }
            guard spendFetch() else { return again ? [] : cached }
            let (named, unnamed) = try fetch()
            return state.withLock {
                $0.named = named
                $0.unnamed = unnamed
                $0.fetches += 1
                return $0.candidates(kid, algorithm)
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

    private func fetch() throws(AuthError) -> (named: [String: TenantKey], unnamed: [TenantKey]) {
        let response: HTTPClientResponse
        do {
            response = try http.send(HTTPClientRequest(method: "GET", url: url, timeoutSeconds: timeoutSeconds))
        } catch {
            throw AuthError(.jwksUnavailable, "the provider's JWKS could not be reached")
        }
        guard response.status == 200, let document = JSONValue.parse(response.body), let list = document["keys"]?.array
        else { throw AuthError(.jwksUnavailable, "the provider's JWKS answered \(response.status)") }
        var named: [String: TenantKey] = [:]
        var unnamed: [TenantKey] = []
        // Only signing keys of the kinds JWS uses: an encryption key, or one not understood, is
        // no candidate for any token.
        for entry in list {
            guard let key = TenantKey(jwk: entry) else { continue }
            if let kid = entry["kid"]?.string {
                named[kid] = key
            } else {
                unnamed.append(key)
            }
        }
        return (named, unnamed)
    }
}
