import Auth0Web
import Web

extension Routes {
    /// `GET /logout`: a page with a confirm button; a link alone never logs anyone out.
    func confirmLogout(_ context: RequestContext) -> Response {
        guard let session = context.session else { return .redirect(to: "/") }
        return context.pages.confirmLogout(session)
    }

    /// `POST /logout`: ends the session in the ledger first (so a copy of the cookie is refused by
    /// every worker), clears every session cookie, revokes the refresh token and ends the
    /// tenant's session too.
    func logout(_ context: RequestContext) throws -> Response {
        guard let session = context.session else {
            context.endSession()
            return .redirect(to: "/logged-out", status: 303)
        }
        try checkForm(try context.request.formBody(), context)
        services.endLogin(session, context)
        if let refreshToken = session.refreshToken {
            // Logging out must not depend on Auth0 answering: a failed revocation is only logged.
            do {
                try services.auth0.tokens.revoke(String(refreshToken))
            } catch {
                context.log(.warning, "refresh token revocation failed", ["error": "\(error)"])
            }
        }
        context.log(.info, "logout", ["user": session.profile.sub])
        var response = Response.redirect(
            to: services.auth0.links.logout(
                tenantSessionID: session.tenantSessionID,
                idTokenHint: session.idTokenHint),
            status: 303)
        // The browser drops what it kept of this origin's pages and storage. Not "cookies": that
        // would clear every site under the registrable domain; this site's cookies are expired
        // one by one (context.endSession()).
        response.add("Clear-Site-Data", #""cache", "storage""#)
        return response
    }
}
