import Synchronization
import Web

/// What protects the tenant's own forms (the login form, the logout confirmation): failed
/// password attempts are limited per email and per address, and form tickets are used once.
/// Kept in memory: a restart forgets them, as a short-lived limit may.
final class LoginGuard: Sendable {
    /// Failed attempts allowed per email within `window` seconds.
    static let failuresPerEmail = 10
    /// Failed attempts allowed per client address within `window` seconds.
    static let failuresPerAddress = 30
    /// The window the failures are counted in, in seconds.
    static let window: Double = 600

    private struct State {
        var failures: [String: [Double]] = [:]
        /// Ticket ids used, with when they expire (after that they cannot be replayed anyway).
        var usedTickets: [String: Double] = [:]
    }

    private let state = Mutex(State())

    /// True when `email` or `address` has had too many failed attempts lately.
    func isLimited(email: String, address: String, now: Double) -> Bool {
        state.withLock { state in
            count(&state, "email:" + email.lowercased(), now) >= LoginGuard.failuresPerEmail
                || count(&state, "address:" + address, now) >= LoginGuard.failuresPerAddress
        }
    }

    /// Counts a failed attempt for `email` and `address`.
    func recordFailure(email: String, address: String, now: Double) {
        state.withLock { state in
            state.failures["email:" + email.lowercased(), default: []].append(now)
            state.failures["address:" + address, default: []].append(now)
        }
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
