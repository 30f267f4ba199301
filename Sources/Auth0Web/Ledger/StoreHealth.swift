import Synchronization

/// Whether the ledger's store answered its last operation, shared by the ledger and its renewal
/// lock: the first failure after it worked is an outage's first, reported as such.
final class StoreHealth: Sendable {
    private let events: any Auth0Events
    private let healthy = Atomic<Bool>(true)

    init(events: any Auth0Events) { self.events = events }

    /// True unless the last operation failed.
    var isHealthy: Bool { healthy.load(ordering: .relaxed) }

    /// Notes a failed operation and reports it.
    func failed(_ operation: String, _ error: any Error) {
        let firstOfOutage = healthy.exchange(false, ordering: .relaxed)
        events.ledgerFailed(operation: operation, error: "\(error)", firstOfOutage: firstOfOutage)
    }

    /// Notes an answer; true when the store had been failing until now.
    func answeredAgain() -> Bool { !healthy.exchange(true, ordering: .relaxed) }
}
