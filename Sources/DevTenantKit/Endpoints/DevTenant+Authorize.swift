import OpenSSLCrypto
import Web

/// Universal Login: `/authorize`, the login page and its single sign-on session.
extension DevTenant {
    /// `/authorize`: the request resolved (pushed, a request object, or the query), checked against
    /// the application's policy, then the login decided (this browser's session, a session
    /// transfer token, or the login page).
    mutating func authorize(_ request: Request) throws -> Response {
        let authorization: AuthorizationRequest
        switch try resolveAuthorization(request) {
        case .success(let resolved): authorization = resolved
        case .failure(let refusal): return refusal.answer
        }
        if let (error, description) = policyRefusal(authorization) { return authorization.fail(error, description) }
        return try decideLogin(authorization, request)
    }

    /// A session transfer token's login, this browser's tenant session (asking a second factor
    /// or a fresh password when the request needs one), or the login page; `prompt=none` never
    /// shows a page.
    private func decideLogin(_ authorization: AuthorizationRequest, _ request: Request) throws -> Response {
        let (query, client) = (authorization.query, authorization.client)
        let pending = pendingLogin(authorization)
        if let transfer = query["session_transfer_token"] {
            return try transferSession(transfer, pending: .object(pending), client: client, request: request)
        }
        let prompt = query["prompt"]
        if prompt != "login", let (user, sid, authTime, multiFactor) = ssoSession(request) {
            switch stepNeeded(.object(pending), authTime: authTime, multiFactor: multiFactor) {
            case .code where prompt != "none":
                return try codePage(.object(pending), user: user, sessionID: sid, authTime: authTime)
            case .code, .password:
                if prompt == "none" {
                    return authorization.fail("interaction_required", "Multifactor authentication required")
                }
            case nil:
                if prompt == "none",
                    !store.hasGranted(userID: user.userID, clientID: client.clientID, scope: query["scope"] ?? "openid")
                {
                    return authorization.fail("consent_required", "Consent required")
                }
                return try afterLogin(
                    authenticated(.object(pending), authTime: authTime, multiFactor: multiFactor), user: user,
                    sessionID: sid)
            }
        }
        if prompt == "none" { return authorization.fail("login_required", "Login required") }
        // The form's ticket is bound to this browser by a cookie and used once.
        let (tx, cookie) = try issueTicket(.object(pending), purpose: "login")
        var page = renderLogin(
            tx: tx, clientName: client.name, email: "", error: nil, status: 200, returnsTo: authorization.redirectURI)
        page.setCookie(cookie)
        return page
    }

    /// Native to Web SSO at `/authorize`, as Auth0 documents it: a session transfer token logs
    /// its person in (reusing this browser's session when it is theirs) if it is known, unused,
    /// within its life, from the address it was issued to, and the application accepts it in the
    /// query. It is used up either way. A valid token for another person than this browser's
    /// session ends that session (Auth0: "the pre-existing Auth0 session is revoked"); an invalid
    /// one leaves it alone (a made-up token in a link must not log anyone out). Either way the
    /// login page asks for a password, with a sentence saying why.
    private func transferSession(_ token: String, pending: JSONValue, client: TenantConfig.Client, request: Request)
        throws -> Response
    {
        let grant = store.takeTransferToken(token)
        let current = ssoSession(request)
        if client.sessionTransferMethods.contains("query"), let grant,
            grant.boundAddress == nil || grant.boundAddress == request.remoteAddress,
            let user = store.user(id: grant.userID), !user.blocked
        {
            if let (person, sid, _, _) = current, person.userID == user.userID {
                return try afterLogin(pending, user: user, sessionID: sid)
            }
            if let (_, sid, _, _) = current {
                store.endSession(sid)
            } else {
                log(.info, "session transfer token honoured", ["client": client.clientID])
                let (sid, cookie) = try startSession(for: user)
                return try afterLogin(
                    authenticated(pending, authTime: now(), multiFactor: false), user: user, sessionID: sid,
                    newSession: cookie)
            }
        }
        log(.info, "session transfer token refused", ["client": client.clientID])
        let (tx, cookie) = try issueTicket(pending, purpose: "login")
        var page = renderLogin(
            tx: tx, clientName: client.name, email: "",
            error: say(
                "The sign-in from the app could not be used here (it was used already, has expired, or came from another device). Log in with your password."
            ),
            status: 200, returnsTo: pending["redirect_uri"]?.string ?? "")
        page.setCookie(cookie)
        return page
    }

    /// A new tenant session for `user` in this browser, its password given now: its `sid` and its cookie.
    func startSession(for user: TenantUser) throws -> (sid: String, cookie: SetCookie) {
        let sid = Base64URL.encode(SecureRandom.bytes(16))
        store.addSession(sid, userID: user.userID)
        return (sid, try ssoCookie(user: user, sessionID: sid, authTime: now(), multiFactor: false))
    }

    /// The single sign-on cookie of a tenant session: who, which session, when the password was
    /// given and whether the second factor was.
    func ssoCookie(user: TenantUser, sessionID: String, authTime: Double, multiFactor: Bool) throws -> SetCookie {
        let sso = try sealer.seal(
            .object([
                "uid": .string(user.userID), "sid": .string(sessionID), "at": .number(authTime),
                "mfa": .bool(multiFactor),
            ]), purpose: "sso", expiresAt: now() + 3 * 86_400)
        return SetCookie(name: DevTenant.ssoCookie, value: sso, secure: config.secureCookies)
    }

    mutating func submitLogin(_ request: Request) throws -> Response {
        // Login CSRF: a form posted from another site is refused before anything is read.
        guard isSameOrigin(request) else {
            return message(403, "Not allowed", "This login form was not sent from the tenant's own login page.")
        }
        let form = try request.formBody()
        guard let tx = form["tx"], let (ticket, pending) = readTicket(tx, purpose: "login", request: request),
            let redirectURI = pending["redirect_uri"]?.string, let clientID = pending["client_id"]?.string,
            let client = directory.client(clientID)
        else { return loginExpired() }
        speak(request, uiLocales: pending["ui_locales"]?.string)
        var errorPairs: [(String, String)] = []
        if let state = pending["state"]?.string { errorPairs.append(("state", state)) }
        if form["action"] == "cancel" {
            guard useTicket(ticket) else { return loginExpired() }
            var response = DevTenant.answer(
                redirectURI,
                [("error", "access_denied"), ("error_description", "The user cancelled the login")] + errorPairs,
                mode: pending["response_mode"]?.string)
            response.setCookie(clearTicket(ticket))
            return response
        }
        let email = form["email"] ?? ""
        let address = request.remoteAddress
        if guardian.isLimited(email: email, address: address, now: now()) {
            var page = message(
                429, "Too many attempts", "Too many wrong passwords. Wait a few minutes and try again.")
            page.add("Retry-After", String(Int(LoginGuard.window)))
            return page
        }
        guard let user = store.user(email: email),
            ConstantTime.equal(Array(user.password.utf8), Array((form["password"] ?? "").utf8))
        else {
            guardian.recordFailure(email: email, address: address, now: now())
            return renderLogin(
                tx: tx, clientName: client.name, email: email, error: say("Wrong email or password."), status: 400,
                returnsTo: redirectURI)
        }
        // Used once: the same form cannot log in twice, nor two people.
        guard useTicket(ticket) else { return loginExpired() }
        if user.blocked {
            return DevTenant.answer(
                redirectURI, [("error", "unauthorized"), ("error_description", "user is blocked")] + errorPairs,
                mode: pending["response_mode"]?.string)
        }
        let (sid, cookie) = try startSession(for: user)
        var response: Response
        if stepNeeded(pending, authTime: now(), multiFactor: false) == .code {
            response = try codePage(pending, user: user, sessionID: sid, authTime: now())
            response.setCookie(cookie)
        } else {
            response = try afterLogin(
                authenticated(pending, authTime: now(), multiFactor: false), user: user, sessionID: sid,
                newSession: cookie)
        }
        response.setCookie(clearTicket(ticket))
        return response
    }

    private func loginExpired() -> Response {
        message(400, "Login expired", "This login page has expired. Go back to the application and log in again.")
    }

    /// The person logged in to the tenant in this browser, if any: who, the tenant session, when
    /// its password was given and whether it passed the second factor (a cookie sealed before
    /// either was kept: at the start of time, without).
    func ssoSession(_ request: Request) -> (user: TenantUser, sid: String, authTime: Double, multiFactor: Bool)? {
        guard let value = request.cookies[DevTenant.ssoCookie],
            let sso = sealer.open(value, purpose: "sso", now: now()),
            let uid = sso["uid"]?.string, let sid = sso["sid"]?.string, store.isLive(session: sid),
            let user = store.user(id: uid), !user.blocked
        else { return nil }
        return (user, sid, sso["at"]?.number ?? 0, sso["mfa"]?.bool ?? false)
    }

    func issueCode(_ pending: JSONValue, user: TenantUser, sessionID: String) throws -> Response {
        guard let clientID = pending["client_id"]?.string, let redirectURI = pending["redirect_uri"]?.string else {
            return message(400, "invalid_request", "The login request is incomplete.")
        }
        let code = store.addCode(
            CodeGrant(
                clientID: clientID, redirectURI: redirectURI, userID: user.userID, nonce: pending["nonce"]?.string,
                scope: pending["scope"]?.string ?? "openid", audience: pending["audience"]?.string,
                codeChallenge: pending["code_challenge"]?.string, challengeMethod: pending["method"]?.string ?? "plain",
                sessionID: sessionID, expiresAt: now() + Double(config.codeLifetime),
                authTime: pending["auth_time"]?.number, multiFactor: pending["mfa"]?.bool ?? false,
                dpopJKT: pending["dpop_jkt"]?.string,
                stateToHash: directory.client(clientID)?.isFAPI == true ? pending["state"]?.string : nil))
        var pairs = [("code", code)]
        if let state = pending["state"]?.string { pairs.append(("state", state)) }
        return DevTenant.answer(redirectURI, pairs, mode: pending["response_mode"]?.string)
    }

    private func renderLogin(
        tx: String, clientName: String, email: String, error: String?, status: Int, returnsTo redirectURI: String
    ) -> Response {
        var context: TemplateContext = [
            "pageTitle": .text(say("Log in") + " | \(clientName)"), "tx": .text(tx), "clientName": .text(clientName),
            "email": .text(email),
        ]
        if let error { context["error"] = .text(error) }
        return formPage(pages.login.render(context), status: status, returnsTo: redirectURI)
    }

    /// One of the tenant's form pages. The form's answer redirects to the application:
    /// browsers check form-action on redirects too.
    func formPage(_ html: [UInt8], status: Int, returnsTo redirectURI: String) -> Response {
        var response = Response.html(html, status: status)
        response.add(
            "Content-Security-Policy",
            "default-src 'none'; style-src 'self'; form-action 'self' \(URLOrigin.of(redirectURI) ?? "'none'"); "
                + "frame-ancestors 'none'")
        return response
    }
}
