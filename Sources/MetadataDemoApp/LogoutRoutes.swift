import Auth0Web
import Web

extension Routes {
    /// `GET /logout`: a page with a confirm button; a link alone never logs anyone out.
    func confirmLogout(_ request: Request) -> Response {
        guard let (session, _) = session(request) else { return .redirect(to: "/") }
        return pages.confirmLogout(session)
    }

    /// `POST /logout`: clears every session cookie and ends the tenant's session too.
    func logout(_ request: Request) throws -> Response {
        let loaded = services.sessions.load(from: request.cookies)
        guard let session = loaded.session else {
            var response = Response.redirect(to: "/logged-out", status: 303)
            clearSession(loaded, in: &response)
            return response
        }
        try checkForm(try request.formBody(), request: request, session: session)
        if let refreshToken = session.refreshToken {
            // Logging out must not depend on Auth0 answering: a failed revocation is only logged.
            do {
                try services.tokens.revoke(refreshToken)
            } catch {
                log(.warning, "refresh token revocation failed", ["id": request.requestID, "error": "\(error)"])
            }
        }
        var response = Response.redirect(
            to: services.settings.logoutURL(tenantSessionID: session.tenantSessionID), status: 303)
        clearSession(loaded, in: &response)
        log(.info, "logout", ["id": request.requestID, "user": session.profile.sub])
        return response
    }
}
