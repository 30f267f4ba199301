import Locking
import Web

/// What protects the tenant's own forms (the login form, the logout confirmation): failed
/// password attempts are limited per account from one address (Auth0's brute-force protection:
/// a stranger's guesses never lock the owner out elsewhere) and per address across accounts,
/// and form tickets are used once. Kept in memory: a restart forgets them, as a short-lived
/// limit may; keys whose window has passed are pruned, so guesses cannot fill the memory.
final class LoginGuard: Sendable {
    /// Failed attempts allowed per email from one address within `window` seconds.
    static let failuresPerEmail = 10
    /// Failed attempts allowed per client address within `window` seconds.
    static let failuresPerAddress = 30
    /// The window the failures are counted in, in seconds.
    static let window: Double = 600

    private struct State {
        var failures: [String: [Double]] = [:]
        /// Ticket ids used, with when they expire (after that they cannot be replayed anyway).
        var usedTickets: [String: Double] = [:]
        /// The time step of each person's last accepted one-time code: a code is accepted once.
        var usedCodeSteps: [String: Int64] = [:]
    }

    private let state = Lock(State())

    /// How many keys may be kept before the stale ones are pruned.
    static let pruneAbove = 1_000

    /// True when `email` from `address`, or `address` alone, has had too many failed attempts lately.
    func isLimited(email: String, address: String, now: Double) -> Bool {
        isLimited(Self.accountKey(email, address), address: address, now: now)
    }

    /// Counts a failed attempt for `email` from `address`, and for `address`.
    func recordFailure(email: String, address: String, now: Double) {
        recordFailure(Self.accountKey(email, address), address: address, now: now)
    }

    /// True when `person` has typed too many wrong one-time codes lately, from whatever
    /// addresses (Auth0's MFA counts per user: a new address brings no new guesses), or `address`
    /// has failed too often.
    func isCodeLimited(person: String, address: String, now: Double) -> Bool {
        isLimited("code:" + person, address: address, now: now)
    }

    /// Counts a wrong one-time code against `person` and `address`.
    func recordCodeFailure(person: String, address: String, now: Double) {
        recordFailure("code:" + person, address: address, now: now)
    }

    /// True when `key` (an account from an address, or a person's codes) or `address` has failed
    /// too often lately.
    private func isLimited(_ key: String, address: String, now: Double) -> Bool {
        state.withLock { state in
            count(&state, key, now) >= LoginGuard.failuresPerEmail
                || count(&state, "address:" + address, now) >= LoginGuard.failuresPerAddress
        }
    }

    /// Counts a failure against `key` and `address`, pruning stale keys first.
    private func recordFailure(_ key: String, address: String, now: Double) {
        state.withLock { state in
            if state.failures.count >= LoginGuard.pruneAbove {
                state.failures = state.failures.filter { now - ($0.value.last ?? 0) < LoginGuard.window }
            }
            state.failures[key, default: []].append(now)
            state.failures["address:" + address, default: []].append(now)
        }
    }

    /// Marks `person`'s code of time step `step` used; false when that code, or a later one,
    /// already passed (RFC 6238 §5.2: a code is not accepted a second time).
    func useCode(person: String, step: Int64) -> Bool {
        state.withLock { state in
            if let last = state.usedCodeSteps[person], step <= last { return false }
            state.usedCodeSteps[person] = step
            return true
        }
    }

    /// How many accounts and addresses have failures remembered (for tests).
    var rememberedKeys: Int { state.withLock { $0.failures.count } }

    private static func accountKey(_ email: String, _ address: String) -> String {
        "account:" + address + " " + email.lowercased()
    }

    /// Marks a ticket used; false when it already was.
    func use(ticket id: String, expiresAt: Double, now: Double) -> Bool {
        state.withLock { state in
            state.usedTickets = state.usedTickets.filter { $0.value > now }
            guard state.usedTickets[id] == nil else { return false }
            state.usedTickets[id] = expiresAt
            return true
        }
    }

    private func count(_ state: inout State, _ key: String, _ now: Double) -> Int {
        let recent = (state.failures[key] ?? []).filter { now - $0 < LoginGuard.window }
        state.failures[key] = recent.isEmpty ? nil : recent
        return recent.count
    }
}
