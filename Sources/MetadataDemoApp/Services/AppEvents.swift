import Auth0Web
import FoundationEssentials
import Web

/// What the Auth0 mechanisms report, counted in the metrics and written to the log.
struct AppEvents: Auth0Events {
    let metrics: AppMetrics
    let log: Log
    let status: @Sendable (String) -> Void

    func renewed() { metrics.renewed() }

    func renewalFailed(reason: String) {
        metrics.renewalFailed(reason: reason)
        log(.warning, "token renewal failed", ["reason": reason])
    }

    func managementCall(outcome: String) { metrics.managementCall(outcome: outcome) }

    func ledgerFailed(operation: String, error: String, firstOfOutage: Bool) {
        metrics.ledgerFailed(operation: operation)
        // One warning when an outage begins (the follower retries twice a second); every failed write.
        if firstOfOutage || operation != "follow" {
            log(.warning, "session ledger store failed", ["operation": operation, "error": error])
        }
        if firstOfOutage {
            status("serving; session ledger store unavailable since \(Date().formatted(.iso8601)): \(error)")
        }
    }

    func ledgerRecovered() {
        metrics.ledgerRecovered()
        log(.warning, "session ledger store answers again", [:])
        status("serving")
    }

    func ledgerStoreReset(rewritten: Int) {
        metrics.ledgerStoreReset()
        log(
            .warning,
            "session ledger store came back without its log or part of it; remembered ended sessions written again",
            ["rewritten": String(rewritten)])
    }

    func announcementRefused(user: String) {
        metrics.announcementRefused()
        log(.warning, "announcement_url refused: not an absolute http(s) URL", ["user": user])
    }
}
