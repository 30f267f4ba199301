import Auth0Web
import Web

/// The session stage's judgement, the same for every route that serves a session (`/`, `/me`,
/// `/auth/check`): a session last checked with the tenant more than `SESSION_REVALIDATE_SECONDS`
/// ago is checked again before the route sees it (its access token renewed with the refresh
/// token and its metadata read again). Once per session per interval across every worker (the
/// ledger's claim): other views of a due session are served from it meanwhile. A refusal ends
/// the session (the route then sees a logged-out visitor, `RequestContext.endedSessionHere`); the
/// tenant's trouble keeps it and holds further checks back for five minutes (or as long as it
/// asked). A session without a refresh token cannot be checked and is left as it is.
struct SessionRevalidation: Sendable {
    /// How long a check that met the tenant's trouble (429, 5xx, no answer) holds back the next.
    static let backoffSeconds: Int64 = 300

    let services: AppServices

    /// Checks the context's session when it is due. Throws `WaitRequired` on a page thread when
    /// it is (the claim asks the shared store, the check calls the tenant), before doing anything.
    func checkIfDue(_ context: RequestContext) throws(WaitRequired) {
        let interval = services.settings.sessions.revalidateSeconds
        guard interval > 0 else { return }
        let now = Int64(services.clock.now())
        guard context.isDueForRevalidation(now: now, interval: interval) else { return }
        try context.requireWaiting()
        guard let session = context.session,
            services.ledger.revalidations.claim(session, for: Double(interval))
        else { return }
        do {
            try context.updateSession { session in
                session.accessToken = nil  // renewing is the check: a token still held would be used instead
                try services.auth0.metadata.revalidate(&session)
                session.checkedAt = now
            }
            services.metrics.revalidated()
        } catch let error as SessionEnded {
            context.log(.info, "session ended at revalidation", ["reason": error.reason])
            services.endEndedByTenant(context)
        } catch {
            context.log(.warning, "revalidation failed", ["error": "\(error)"])
            let asked = (error as? ManagementError)?.retryAfterSeconds.map(Int64.init) ?? 0
            let hold = min(interval, max(Self.backoffSeconds, asked))
            services.ledger.revalidations.hold(session, for: Double(hold))
            context.updateSession { $0.checkedAt = now - interval + hold }
        }
    }
}
