import Auth0Web
import Web

extension Routes {
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
    /// the metadata again. False when the tenant refused (the session is ended); its trouble
    /// keeps the session and tries again a minute later. A session without a refresh token
    /// cannot be checked and is left as it is.
    private func revalidateIfDue(_ request: Request, _ context: inout SessionContext) throws(WaitRequired) -> Bool {
        let interval = services.settings.revalidateSeconds
        guard interval > 0 else { return true }
        let now = Int64(services.clock.now())
        guard context.isDueForRevalidation(now: now, interval: interval) else { return true }
        try request.requireWaiting()  // the check calls the tenant
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
            context.update { $0.checkedAt = now - interval + 60 }
            return true
        }
    }
}
