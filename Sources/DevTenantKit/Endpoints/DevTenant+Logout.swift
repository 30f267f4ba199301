import Web

/// `/v2/logout` and `/oidc/logout`: end the tenant's session in this browser and return to an
/// allowed logout URL.
extension DevTenant {
    func logoutV2(_ request: Request) throws -> Response {
        let query = try request.queryParameters()
        let clients = query["client_id"].flatMap { directory.client($0) }.map { [$0] } ?? directory.clients
        if query["client_id"] != nil, clients.isEmpty {
            return message(400, "invalid_request", "Unknown client_id.")
        }
        let allowed = clients.flatMap(\.logoutURLs)
        let target: String
        if let returnTo = query["returnTo"] {
            // Allowed Logout URLs are matched with a case-sensitive path.
            guard allowed.contains(returnTo) else {
                return message(
                    400, "invalid_request",
                    "The \"returnTo\" querystring parameter is not defined as a valid URL in \"Allowed Logout URLs\".")
            }
            target = returnTo
        } else if let first = allowed.first {
            target = first
        } else {
            return message(200, "You are logged out", "You have logged out of the dev tenant.")
        }
        return endSession(request, redirectTo: target)
    }

    func logoutOIDC(_ request: Request) throws -> Response {
        let query = try request.queryParameters()
        guard let target = allowedPostLogoutURI(query) else {
            return message(400, "invalid_request", "post_logout_redirect_uri is not an Allowed Logout URL.")
        }
        var pairs: [(String, String)] = []
        if let state = query["state"] { pairs.append(("state", state)) }
        let current = ssoSession(request)
        let hinted: Bool
        if let hint = query["logout_hint"] {
            hinted = current?.sid == hint
        } else if let idToken = query["id_token_hint"],
            let claims = signer.verifyAccessToken(idToken, issuer: config.issuer, now: -.infinity)
        {
            hinted = claims["sid"]?.string == current?.sid
        } else {
            hinted = false
        }
        // Without a matching hint, Auth0 asks the person to confirm.
        guard hinted || current == nil else {
            var fields: [String: JSONValue] = ["post_logout_redirect_uri": .string(target)]
            if let clientID = query["client_id"] { fields["client_id"] = .string(clientID) }
            if let state = query["state"] { fields["state"] = .string(state) }
            // The confirmation is a ticket bound to this browser and used once, like the login form.
            let (ticket, cookie) = try issueTicket(.object(fields), purpose: "logout-confirm")
            var page = message(
                200, "Log out?", "Do you want to log out of the dev tenant?", confirmAction: "/oidc/logout/confirm",
                fields: [("ticket", ticket)])
            page.setCookie(cookie)
            return page
        }
        return endSession(request, redirectTo: target, pairs)
    }

    func confirmOIDCLogout(_ request: Request) throws -> Response {
        guard isSameOrigin(request) else {
            return message(403, "Not allowed", "This form was not sent from the tenant's own page.")
        }
        let form = try request.formBody()
        guard let (ticket, fields) = readTicket(form["ticket"], purpose: "logout-confirm", request: request),
            useTicket(ticket)
        else {
            return message(
                400, "Logout expired", "This page has expired. Go back to the application and log out again.")
        }
        let pairs = (fields.object ?? [:]).compactMap { name, value in value.string.map { (name, $0) } }
        guard let target = allowedPostLogoutURI(FormData(pairs: pairs)) else {
            return message(400, "invalid_request", "post_logout_redirect_uri is not an Allowed Logout URL.")
        }
        var response = endSession(
            request, redirectTo: target, fields["state"]?.string.map { [("state", $0)] } ?? [])
        response.setCookie(clearTicket(ticket))
        return response
    }

    private func allowedPostLogoutURI(_ query: FormData) -> String? {
        let clients = query["client_id"].flatMap { directory.client($0) }.map { [$0] } ?? directory.clients
        guard let uri = query["post_logout_redirect_uri"] else { return clients.first?.logoutURLs.first }
        return clients.flatMap(\.logoutURLs).contains(uri) ? uri : nil
    }

    /// Ends the browser's tenant session, tells the applications (back-channel logout) and
    /// sends the browser on.
    private func endSession(_ request: Request, redirectTo target: String, _ pairs: [(String, String)] = [])
        -> Response
    {
        if let (user, sid, _, _) = ssoSession(request) {
            store.endSession(sid)
            sendLogoutTokens(sid: sid, sub: user.userID)
        }
        var response = pairs.isEmpty ? Response.redirect(to: target) : DevTenant.redirect(target, pairs)
        response.setCookie(.expired(DevTenant.ssoCookie, secure: config.secureCookies))
        return response
    }
}
