import Auth0Web
import Web

extension Routes {
    /// How long a revalidation that met the tenant's trouble (429, 5xx, no answer) holds back the next.
    static let revalidationBackoffSeconds: Int64 = 300

    /// `GET /`: the profile when logged in, else the first screen. The metadata shown is what the
    /// session holds; only a session due for revalidation calls Auth0 (see `revalidateIfDue`).
    func home(_ request: Request, _ context: inout SessionContext) throws(WaitRequired) -> Response {
        guard context.isLoggedIn() else { return pages(request).welcome(titleKey: "page.welcome.title") }
        guard try revalidateIfDue(request, &context) else {
            return pages(request).welcome(titleKey: "page.logged_out.title")
        }
        return pages(request).profile(context.session!, flash: context.takeFlash())  // borrowed, not copied
    }

    /// Checks a session with the tenant when it was last checked more than
    /// `SESSION_REVALIDATE_SECONDS` ago: renews the access token with the refresh token and reads
    /// the metadata again. Once per session per interval across every worker (the ledger's
    /// claim): other page views of a due session are served from it meanwhile. False when the
    /// tenant refused (the session is ended); its trouble keeps the session and holds further
    /// checks back for five minutes (or as long as it asked). A session without a refresh token
    /// cannot be checked and is left as it is.
    private func revalidateIfDue(_ request: Request, _ context: inout SessionContext) throws(WaitRequired) -> Bool {
        let interval = services.settings.revalidateSeconds
        guard interval > 0 else { return true }
        let now = Int64(services.clock.now())
        guard context.isDueForRevalidation(now: now, interval: interval) else { return true }
        try request.requireWaiting()  // the claim asks the shared store, the check calls the tenant
        guard services.ledger.claimRevalidation(of: context.session!, for: Double(interval)) else { return true }
        do {
            try context.update { session in
                session.accessToken = nil  // renewing is the check: a token still held would be used instead
                try services.metadata.refresh(&session)
                session.checkedAt = now
            }
            services.metrics.revalidated()
            return true
        } catch let error as SessionEnded {
            log(.info, "session ended at revalidation", ["id": request.requestID, "reason": error.reason])
            context.end()
            return false
        } catch {
            log(.warning, "revalidation failed", ["id": request.requestID, "error": "\(error)"])
            let asked = (error as? ManagementError)?.retryAfterSeconds.map(Int64.init) ?? 0
            let hold = min(interval, max(Self.revalidationBackoffSeconds, asked))
            services.ledger.holdRevalidation(of: context.session!, for: Double(hold))
            context.update { $0.checkedAt = now - interval + hold }
            return true
        }
    }
}
