import FoundationEssentials
import Locking
import OpenSSLCrypto
import Web

/// One renewal per refresh token across every worker, the lock of oauth2-proxy's
/// `pkg/apis/sessions/lock.go` over the ledger's store: the worker that takes the token's lock
/// renews at the tenant and leaves the result there, sealed, for a short grace; the others wait
/// for that result instead of spending the used token again (which the tenant would take for
/// theft and answer by revoking the whole token family). Each rotation is also remembered as a
/// pointer from the spent token to its successor for as long as a session lives, so a browser
/// whose new cookie never arrived (a mini app's check refused, or its app answered an error, and
/// nginx dropped the check's `Set-Cookie`) renews from the newest token, never the spent one.
final class RenewalLock: Sendable {
    private let store: any SharedStore
    /// Seals renewal results while they wait in the store for the other workers.
    private let sealer: CookieSealer
    /// Seals the pointers from a spent refresh token to the one it was rotated to.
    private let rotations: CookieSealer
    private let clock: Clock
    /// How long a rotation's pointer is kept: as long as a session holding the spent token may live.
    private let rotationMemorySeconds: Double
    /// Told when the store fails an operation (the ledger's outage report).
    private let reportFailure: @Sendable (String, any Error) -> Void

    /// A lock over `store`, sealing results with a key derived from `secrets` (`AUTH0_SECRET`).
    init(
        store: any SharedStore, secrets: [String], clock: Clock, rotationMemorySeconds: Double = 7 * 86_400,
        reportFailure: @escaping @Sendable (String, any Error) -> Void
    ) throws {
        self.store = store
        sealer = try CookieSealer(secrets: secrets, purpose: "renewal-result", clock: clock)
        rotations = try CookieSealer(secrets: secrets, purpose: "refresh-rotation", clock: clock)
        self.rotationMemorySeconds = rotationMemorySeconds
        self.clock = clock
        self.reportFailure = reportFailure
    }

    /// What a waiting worker learns from the one that renewed.
    enum SharedRenewal: Equatable {
        case tokens(accessToken: String, refreshToken: String?, expiresIn: Int64, audience: String?, scope: String?)
        case refused
    }

    /// Runs `renew` for the refresh token whose digest is `key` on one worker at a time and
    /// shares its result; `timeout` bounds the wait for another worker's renewal. If the store
    /// cannot be reached, renews here: Auth0's rotation overlap period is the second safety net.
    func renewOnce(
        key: [UInt8], graceSeconds: Double, timeout: Double, _ renew: () throws(AuthError) -> TokenSet
    ) throws(AuthError) -> TokenSet {
        let name = "renewal:" + Base64URL.encode(key)
        let owner = Array(Base64URL.encode(SecureRandom.bytes(12)).utf8)
        let turn: Turn
        do { turn = try awaitTurn(name, owner: owner, timeout: timeout) } catch {
            reportFailure("lock", error)
            return try renew()
        }
        switch turn {
        case .shared(let result): return try result.tokenSet()
        case .timedOut: throw AuthError(.tenantUnavailable)
        case .mine: break
        }
        defer { try? store.remove(name + ":lock", ifValue: owner) }
        let outcome = Result { () throws(AuthError) in try renew() }
        let shared: SharedRenewal? =
            switch outcome {
            case .success(let tokens):
                .tokens(
                    accessToken: tokens.accessToken, refreshToken: tokens.refreshToken, expiresIn: tokens.expiresIn,
                    audience: tokens.audience, scope: tokens.scope)
            case .failure(let error) where error.code == .refreshRefused: .refused
            case .failure: nil  // the tenant's trouble: the next request tries again
            }
        if let shared {
            do {
                let sealed = try sealer.seal(shared.encoded, name: name, lifetime: Int64(graceSeconds) + 1)
                try store.set(name, Array(sealed.utf8), ttl: graceSeconds)
            } catch {
                reportFailure("set", error)
            }
        }
        if case .success(let tokens) = outcome, let next = tokens.refreshToken { keepRotation(of: key, to: next) }
        return try outcome.get()
    }

    /// The newest refresh token of the chain that starts at the token whose digest is `key`
    /// (`digest` gives the next one's), when that token was spent and rotated; nil when it was
    /// not (or the store does not say). A rotation younger than `settledAfter` seconds is not
    /// followed: requests still on their way share its result instead (`renewOnce`), and would
    /// otherwise spend its new token again for nothing.
    func newest(after key: [UInt8], settledAfter: Double, digest: (String) -> [UInt8]) -> String? {
        var key = key
        var newest: String?
        let settled = Int64(clock.now() - settledAfter)
        for _ in 0..<Self.longestChain {
            let name = Self.rotationName(key)
            guard let sealed = try? store.get(name), let text = String(validating: sealed, as: UTF8.self),
                let opened = rotations.open(text, name: name), opened.issuedAt <= settled,
                let next = String(validating: opened.payload, as: UTF8.self)
            else { break }
            newest = next
            key = digest(next)
        }
        return newest
    }

    /// Rotations followed at most: each is a check whose cookie never reached the browser.
    static let longestChain = 16

    /// The store's key of the pointer from the refresh token whose digest is `key`.
    private static func rotationName(_ key: [UInt8]) -> String { "rotated:" + Base64URL.encode(key) }

    private func keepRotation(of key: [UInt8], to next: String) {
        let name = Self.rotationName(key)
        do {
            let sealed = try rotations.seal(Array(next.utf8), name: name, lifetime: Int64(rotationMemorySeconds) + 1)
            try store.set(name, Array(sealed.utf8), ttl: rotationMemorySeconds)
        } catch {
            reportFailure("set", error)
        }
    }

    /// Whose turn it is to renew: this worker's (it holds the lock), or another's that finished.
    private enum Turn { case mine, shared(SharedRenewal), timedOut }

    /// Takes the lock, or waits for the result of the worker that holds it, until `timeout`.
    private func awaitTurn(_ name: String, owner: [UInt8], timeout: Double) throws(SharedStoreError) -> Turn {
        let deadline = clock.now() + timeout
        while true {
            if let shared = try result(name) { return .shared(shared) }
            if try store.add(name + ":lock", owner, ttl: timeout) { return .mine }
            guard clock.now() < deadline else { return .timedOut }
            Threads.sleep(seconds: 0.02)  // another worker is renewing: its result comes within the call's timeout
        }
    }

    private func result(_ name: String) throws(SharedStoreError) -> SharedRenewal? {
        guard let sealed = try store.get(name), let text = String(validating: sealed, as: UTF8.self),
            let opened = sealer.open(text, name: name)
        else { return nil }
        return SharedRenewal(encoded: Array(opened.payload))
    }
}

extension RenewalLock.SharedRenewal {
    var encoded: [UInt8] {
        var w = ByteWriter(capacity: 256)
        switch self {
        case .tokens(let access, let refresh, let expiresIn, let audience, let scope):
            // 3: with the audience and scope (1, without, was written before mini apps' APIs).
            w.write(UInt8(3))
            w.write(access)
            w.write(optional: refresh)
            w.write(expiresIn)
            w.write(optional: audience)
            w.write(optional: scope)
        case .refused:
            w.write(UInt8(2))
        }
        return w.bytes
    }

    init?(encoded bytes: [UInt8]) {
        var r = ByteReader(bytes[...])
        do {
            switch try r.readByte() {
            case let kind where kind == 1 || kind == 3:
                self = .tokens(
                    accessToken: try r.readString(), refreshToken: try r.readOptionalString(),
                    expiresIn: try r.readInt64(), audience: kind == 3 ? try r.readOptionalString() : nil,
                    scope: kind == 3 ? try r.readOptionalString() : nil)
            case 2: self = .refused
            default: return nil
            }
            guard r.isAtEnd else { return nil }
        } catch {
            return nil
        }
    }

    func tokenSet() throws(AuthError) -> TokenSet {
        switch self {
        case .tokens(let access, let refresh, let expiresIn, let audience, let scope):
            return TokenSet(
                accessToken: access, idToken: nil, refreshToken: refresh, expiresIn: expiresIn, audience: audience,
                scope: scope)
        case .refused:
            throw AuthError(.refreshRefused)
        }
    }
}
