import Auth0Web
import Web

extension Routes {
    /// `GET /frontchannel-logout`: the provider's logout page loads this address in an iframe
    /// when the person logs out there (OpenID Connect Front-Channel Logout 1.0). With `iss` and
    /// `sid` (`frontchannel_logout_session_required`), the logins of that provider session end on
    /// every worker, with no cookie needed: a cross-site iframe carries no `SameSite=Lax` cookie.
    /// A wrong `iss` ends nothing. Without them, the session whose cookie came with the request
    /// ends (a provider on the same site as the product). Always an empty page the provider's
    /// origin alone may frame, never cached.
    func frontchannelLogout(_ context: RequestContext) -> Response {
        let query = (try? FormData(urlEncoded: Array(context.request.query.utf8))) ?? FormData(pairs: [])
        let issuer = services.logoutTokens.issuer
        if query["iss"] != nil || query["sid"] != nil {
            guard query["iss"] == issuer, let sid = query["sid"], !sid.isEmpty else {
                services.metrics.frontchannelLogout(outcome: "refused")
                context.log(.warning, "front-channel logout refused", ["reason": "wrong_issuer_or_no_sid"])
                return frontchannelAnswer()
            }
            services.ledger.endTenantSession(sid)
            services.metrics.frontchannelLogout(outcome: "ended")
            context.log(.info, "front-channel logout", ["scope": "session"])
        } else if let session = context.session {
            services.ledger.endLogin(session)
            services.registry.loggedOut(session)
            context.endSession()
            services.metrics.frontchannelLogout(outcome: "ended")
            context.log(.info, "front-channel logout", ["user": session.profile.sub, "scope": "cookie"])
        } else {
            services.metrics.frontchannelLogout(outcome: "no_session")
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
