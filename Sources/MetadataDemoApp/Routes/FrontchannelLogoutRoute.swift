import Auth0Web
import Web

extension Routes {
    /// `GET /frontchannel-logout`: the provider's logout page loads this address in an iframe
    /// when the person logs out there (OpenID Connect Front-Channel Logout 1.0); 404 while
    /// `FRONTCHANNEL_LOGOUT` is off (by default with a provider whose discovery document does not
    /// say `frontchannel_logout_supported`, Auth0 among them). Anyone can send it, so it ends only
    /// what a login here holds, and nothing it is sent makes anything grow:
    /// - `iss` (the issuer, exactly) and a `sid` a login here was made in: that provider
    ///   session's logins end on every worker, no cookie needed (a cross-site iframe carries no
    ///   `SameSite=Lax` cookie); an unknown `sid` (or one over `ProviderSessions.longestSID`
    ///   bytes) writes nothing anywhere, and a known one is forgotten as it ends.
    /// - The cookie's own session, only in the specification's iframe on this site
    ///   (`Sec-Fetch-Dest: iframe`, `Sec-Fetch-Site` same-origin or same-site: a link or form
    ///   from another site ends nothing): with a matching `iss`, when its login holds that `sid`
    ///   or none (LemonLDAP::NG names its user as `sid` and puts none in ID tokens); without
    ///   `iss` and `sid`, always.
    /// Always an empty page the provider's origin alone may frame, never cached.
    func frontchannelLogout(_ context: RequestContext) -> Response {
        guard services.frontchannelLogout else { return context.pages.notFound() }
        let query = (try? FormData(urlEncoded: Array(context.request.query.utf8))) ?? FormData(pairs: [])
        let (iss, sid) = (query["iss"], query["sid"])
        var outcome = "no_session"
        if iss != nil || sid != nil {
            guard iss == services.auth0.logoutTokens.issuer, let sid, ProviderSessions.isLookupable(sid) else {
                return frontchannelRefused(context, reason: "wrong_issuer_or_sid")
            }
            do {
                if try services.ledger.providerSessions.take(sid) {
                    services.ledger.endTenantSession(sid)
                    outcome = "ended"
                    context.log(.info, "front-channel logout", ["scope": "session"])
                } else {
                    outcome = "unknown_sid"
                }
            } catch {
                outcome = "store_unavailable"
            }
        }
        if let session = framedSession(context),
            sid == nil || session.tenantSessionID == nil || session.tenantSessionID == sid
        {
            services.endLogin(session, context)
            outcome = "ended"
            context.log(.info, "front-channel logout", ["user": session.profile.sub, "scope": "cookie"])
        }
        services.metrics.frontchannelLogout(outcome: outcome)
        return frontchannelAnswer()
    }

    /// The session of the cookie sent, when the request is the specification's iframe on this
    /// site as the browser says it (Fetch Metadata): a top-level navigation from anywhere, or a
    /// request without Fetch Metadata, carries a `SameSite=Lax` cookie too, and must end nothing.
    private func framedSession(_ context: RequestContext) -> Session? {
        guard context.request.header("sec-fetch-dest") == "iframe",
            let site = context.request.header("sec-fetch-site"), site == "same-origin" || site == "same-site"
        else { return nil }
        return context.session
    }

    private func frontchannelRefused(_ context: RequestContext, reason: String) -> Response {
        services.metrics.frontchannelLogout(outcome: "refused")
        if let count = anonymousWarnings.frontchannelRefused.add() {
            context.log(.warning, "front-channel logout refused", ["reason": reason, "count": String(count)])
        }
        return frontchannelAnswer()
    }

    /// The iframe's answer: nothing to show, framed by the provider's origin alone, never kept
    /// (the specification's `Cache-Control: no-cache, no-store`). Its policy's `frame-ancestors`
    /// names the provider; with a policy of its own, the answer gets no `X-Frame-Options`
    /// (`SecurityHeaders`), which cannot name an origin.
    private func frontchannelAnswer() -> Response {
        let origin = services.settings.tenantOrigin
        return Response(
            status: 200,
            headers: [
                ("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-cache, no-store"),
                ("Content-Security-Policy", "default-src 'none'; frame-ancestors \(origin); base-uri 'none'"),
                ("Cross-Origin-Resource-Policy", "cross-origin"),
            ],
            body: Array("<!doctype html><title>Logged out</title>\n".utf8))
    }
}
