import Web

/// Universal Login's "Authorize App" screen: a person's first authorization of an application,
/// any later one asking for scopes not granted yet, and every `prompt=consent`, ask them to
/// Accept or Decline what the application asks for (Auth0 never skips it for a loopback
/// callback, which is where the dev tenant's application lives). Accept is remembered per
/// person and application in the tenant's saved state; Decline is `access_denied` at the callback.
extension DevTenant {
    /// After the person is known (logged in now or by single sign-on): the consent screen when
    /// it is due, else the code. `newSession` carries the SSO cookie of a login just made.
    func afterLogin(
        _ pending: JSONValue, user: TenantUser, sessionID: String, newSession: SetCookie? = nil
    ) throws -> Response {
        guard let clientID = pending["client_id"]?.string, let client = directory.client(clientID),
            let redirectURI = pending["redirect_uri"]?.string
        else { return message(400, "invalid_request", "The login request is incomplete.") }
        let scope = pending["scope"]?.string ?? "openid"
        var response: Response
        if pending["prompt"]?.string == "consent"
            || !store.hasGranted(userID: user.userID, clientID: clientID, scope: scope)
        {
            var payload = pending.object ?? [:]
            payload["uid"] = .string(user.userID)
            payload["sid"] = .string(sessionID)
            let (tx, cookie) = try issueTicket(.object(payload), purpose: "consent")
            let items = Self.consentItems(scope).map { ["item": .text(say($0))] as TemplateContext }
            let context: TemplateContext = [
                "pageTitle": .text(say("Authorize App") + " | \(client.name)"), "tx": .text(tx),
                "clientName": .text(client.name),
                "email": .text(user.email),
                "items": .list(items),
            ]
            response = formPage(pages.consent.render(context), status: 200, returnsTo: redirectURI)
            response.setCookie(cookie)
        } else {
            response = try issueCode(pending, user: user, sessionID: sessionID)
        }
        if let newSession { response.setCookie(newSession) }
        return response
    }

    /// The consent form's answer: Accept remembers the scopes and sends the code; Decline sends
    /// `access_denied`.
    mutating func submitConsent(_ request: Request) throws -> Response {
        guard let form = try ownForm(request) else { return notOwnForm() }
        guard let (ticket, pending) = readTicket(form["tx"], purpose: "consent", request: request),
            let redirectURI = pending["redirect_uri"]?.string, let clientID = pending["client_id"]?.string,
            let userID = pending["uid"]?.string, let sid = pending["sid"]?.string, useTicket(ticket)
        else {
            return pageExpired()
        }
        speak(request, uiLocales: pending["ui_locales"]?.string)
        var response: Response
        if form["action"] == "accept", let user = store.user(id: userID), !user.blocked, store.isLive(session: sid) {
            try store.grant(userID: userID, clientID: clientID, scope: pending["scope"]?.string ?? "openid")
            response = try issueCode(pending, user: user, sessionID: sid)
        } else {
            var pairs = [("error", "access_denied"), ("error_description", "User did not authorize the request")]
            if let state = pending["state"]?.string { pairs.append(("state", state)) }
            response = DevTenant.answer(redirectURI, pairs, mode: pending["response_mode"]?.string)
        }
        response.setCookie(clearTicket(ticket))
        return response
    }

    /// What the scopes let the application do, in the words of the consent screen.
    static func consentItems(_ scope: String) -> [String] {
        let scopes = TenantStore.scopes(scope)
        var items: [String] = []
        if !scopes.isDisjoint(with: ["profile", "email", "read:current_user"]) {
            items.append("Read your profile: your name, email address and picture")
        }
        if scopes.contains("update:current_user_metadata") {
            items.append("Read and update your user metadata")
        } else if scopes.contains("read:current_user") {
            items.append("Read your user metadata")
        }
        if scopes.contains("offline_access") { items.append("Keep you logged in while you are away") }
        if items.isEmpty { items.append("Know who you are") }
        return items
    }
}
