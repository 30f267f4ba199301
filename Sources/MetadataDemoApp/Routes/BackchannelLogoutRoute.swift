import Auth0Web
import Web

extension Routes {
    /// `POST /backchannel-logout`: the tenant (not a browser) says sessions ended, with a logout
    /// token in the form field `logout_token` (OpenID Connect Back-Channel Logout 1.0). A `sid`
    /// ends that tenant session's logins on every worker; a `sub` alone ends every session of
    /// that person begun before the token. No CSRF check: no browser is involved and the token
    /// is its own proof. 200 when done; 400 with an OAuth error body when refused.
    func backchannelLogout(_ context: RequestContext) -> Response {
        let ledger = services.ledger
        // Percent-encoded, a token of the longest may take three bytes a character; a body past
        // that is refused before it is parsed at all.
        guard context.request.body.count <= 3 * LogoutTokenVerifier.longest + 256 else {
            return backchannelRefused(
                AuthError.Code.malformedToken.rawValue, "the logout token is longer than a logout token may be",
                context)
        }
        guard let form = try? context.request.formBody(), let token = form["logout_token"], !token.isEmpty else {
            return backchannelRefused("missing_logout_token", "the form field logout_token is required", context)
        }
        let logout: LogoutTokenVerifier.Logout
        do {
            logout = try services.auth0.logoutTokens.verify(token)
        } catch {
            // The keys could not be fetched: the tenant's trouble, so it may send again.
            if error.code == .jwksUnavailable {
                return backchannelAnswer(503, error: "temporarily_unavailable", "the signing keys could not be read")
            }
            return backchannelRefused(
                error.code.rawValue, "the logout token is not valid (\(error.description))", context,
                detail: error.detail)
        }
        guard ledger.logoutTokens.firstSight(of: logout.jti, keptUntil: logout.replayableUntil) else {
            return backchannelRefused(
                AuthError.Code.replayedLogoutToken.rawValue, "this logout token was used before", context)
        }
        if let sid = logout.sid {
            ledger.endTenantSession(sid)
        } else if let sub = logout.sub {
            ledger.endSessions(of: sub, issuedBefore: logout.issuedAt)
        }
        services.metrics.backchannelLogout(outcome: "ended")
        context.log(
            .info, "back-channel logout", ["user": logout.sub ?? "", "scope": logout.sid == nil ? "person" : "session"])
        return backchannelAnswer(200)
    }

    private func backchannelRefused(
        _ reason: String, _ description: String, _ context: RequestContext, detail: String = ""
    ) -> Response {
        services.metrics.backchannelLogout(outcome: reason)
        if let count = anonymousWarnings.backchannelRefused.add() {
            context.log(
                .warning, "back-channel logout refused", ["reason": reason, "detail": detail, "count": String(count)])
        }
        return backchannelAnswer(400, error: "invalid_request", description)
    }

    private func backchannelAnswer(_ status: Int, error: String? = nil, _ description: String = "") -> Response {
        var response: Response
        if let error {
            let body = JSONValue.object(["error": .string(error), "error_description": .string(description)])
            response = .json(body.serialized(), status: status)
        } else {
            response = Response(status: status)
        }
        return response
    }
}
