import Foundation
import OpenSSLCrypto
import Synchronization
import Web

/// Renews access tokens with the refresh token, once per refresh token in the process:
/// concurrent requests of one session wait for the renewal in flight and share its result, and
/// a request that still carries the old refresh token shortly afterwards gets the same result
/// instead of replaying a used token (which the tenant would treat as theft). Only new tokens and
/// a refusal of the token are kept: after any other failure (no answer, 429, 5xx) the next
/// request tries again.
public final class TokenRenewer: Sendable {
    /// How long a finished renewal's result is kept for latecomers.
    public static let resultGraceSeconds: Double = 60

    private final class Flight: @unchecked Sendable {
        // Guarded by `condition`.
        let condition = NSCondition()
        var result: Result<TokenSet, AuthError>?
        var finishedAt: Double = .infinity
    }

    private let tokens: TokenClient
    private let clock: Clock
    private let flights = Mutex<[[UInt8]: Flight]>([:])
    private let renewals = Atomic<Int>(0)

    /// A renewer calling `tokens`, keeping results by the time `clock` says.
    public init(tokens: TokenClient, clock: Clock) {
        self.tokens = tokens
        self.clock = clock
    }

    /// How many renewals actually reached the tenant.
    public var renewalCount: Int { renewals.load(ordering: .relaxed) }

    /// The tokens that replace those of `refreshToken`.
    public func renew(refreshToken: String) throws(AuthError) -> TokenSet {
        let key = SHA256.hash(Array(refreshToken.utf8))  // raw tokens are not kept as keys
        let now = clock.now()
        let (flight, leads) = flights.withLock { flights -> (Flight, Bool) in
            flights = flights.filter { now - $0.value.finishedAt < TokenRenewer.resultGraceSeconds }
            if let existing = flights[key] { return (existing, false) }
            let flight = Flight()
            flights[key] = flight
            return (flight, true)
        }
        if leads {
            renewals.add(1, ordering: .relaxed)
            let result = Result { () throws(AuthError) in try tokens.refresh(refreshToken) }
            flight.condition.lock()
            flight.result = result
            flight.finishedAt = clock.now()
            flight.condition.broadcast()
            flight.condition.unlock()
            if case .failure(let error) = result, error.code != .refreshRefused {
                flights.withLock { flights in
                    if flights[key] === flight { flights[key] = nil }
                }
            }
            return try result.get()
        }
        flight.condition.lock()
        while flight.result == nil { flight.condition.wait() }
        let result = flight.result!
        flight.condition.unlock()
        return try result.get()
    }
}
