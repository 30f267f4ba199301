import OpenSSLCrypto
import Web

/// Step-up at `/authorize`, as Auth0 answers `max_age` and `acr_values`: a tenant session whose
/// password is older than `max_age` logs in again; `acr_values` naming the multi-factor policy
/// asks for a one-time code (the person's authenticator, TOTP) once per tenant session, with the
/// same brute-force limits as passwords. ID tokens then say `auth_time`, and after the code
/// `amr: ["mfa"]` and the policy as `acr`.
extension DevTenant {
    /// Auth0's multi-factor policy (OpenID Provider Authentication Policy Extension).
    static let multiFactorPolicy = "http://schemas.openid.net/pape/policies/2007/06/multi-factor"

    /// What a tenant session lacks for the request `pending`: a fresh password, a code, or nothing.
    enum StepNeeded { case password, code }

    func stepNeeded(_ pending: JSONValue, authTime: Double, multiFactor: Bool) -> StepNeeded? {
        if let maxAge = pending["max_age"]?.string.flatMap(Double.init), now() - authTime > maxAge { return .password }
        let asked = (pending["acr_values"]?.string ?? "").split(separator: " ")
        if asked.contains(Substring(Self.multiFactorPolicy)), !multiFactor { return .code }
        return nil
    }

    /// `pending` with what the ID token will say of this session's authentication.
    func authenticated(_ pending: JSONValue, authTime: Double, multiFactor: Bool) -> JSONValue {
        var fields = pending.object ?? [:]
        fields["auth_time"] = .number(authTime)
        if multiFactor { fields["mfa"] = .bool(true) }
        return .object(fields)
    }

    /// The one-time-code page for `user`, its ticket carrying the login and the tenant session (a
    /// new one, with its cookie, unless the page is shown again with its ticket `existing`).
    func codePage(
        _ pending: JSONValue, user: TenantUser, sessionID: String, authTime: Double, error: String? = nil,
        existing: String? = nil, status: Int = 200
    ) throws -> Response {
        let redirectURI = pending["redirect_uri"]?.string ?? ""
        guard directory.factorEnabled("otp") else {
            return message(
                403, "Multi-factor authentication needed",
                "The application asks for a second factor, and no factor is enabled at this tenant (Security > Multi-factor Auth)."
            )
        }
        guard user.totpSecret != nil else {
            return message(
                403, "Multi-factor authentication needed",
                "This account has no authenticator enrolled, and the application asks for a second factor.")
        }
        var payload = pending.object ?? [:]
        payload["uid"] = .string(user.userID)
        payload["sid"] = .string(sessionID)
        payload["at"] = .number(authTime)
        var cookie: SetCookie?
        var tx = existing ?? ""
        if existing == nil { (tx, cookie) = try issueTicket(.object(payload), purpose: "mfa") }
        var context: TemplateContext = [
            "pageTitle": .text(say("Verify your identity")), "tx": .text(tx), "email": .text(user.email),
        ]
        if let error { context["error"] = .text(error) }
        var response = formPage(pages.mfa.render(context), status: status, returnsTo: redirectURI)
        if let cookie { response.setCookie(cookie) }
        return response
    }

    /// `POST /u/mfa`: the code checked against the person's authenticator; right, the tenant
    /// session remembers the second factor and the login goes on.
    mutating func submitCode(_ request: Request) throws -> Response {
        guard let form = try ownForm(request) else { return notOwnForm() }
        guard let tx = form["tx"], let (ticket, pending) = readTicket(tx, purpose: "mfa", request: request),
            let userID = pending["uid"]?.string, let sid = pending["sid"]?.string,
            let authTime = pending["at"]?.number, let user = store.user(id: userID), !user.blocked,
            let secret = user.totpSecret, store.isLive(session: sid)
        else {
            return pageExpired()
        }
        speak(request, uiLocales: pending["ui_locales"]?.string)
        let address = request.remoteAddress
        // A budget of its own (wrong codes do not spend passwords), per person across addresses.
        if guardian.isCodeLimited(person: user.userID, address: address, now: now()) {
            var page = message(429, "Too many attempts", "Too many wrong codes. Wait a few minutes and try again.")
            page.add("Retry-After", String(Int(LoginGuard.window)))
            return page
        }
        // A code that passed once is spent, as Auth0 accepts each code once: another browser
        // typing it in its window is refused like a wrong one.
        guard let step = OneTimeCode.matchingStep(form["code"] ?? "", secret: secret, at: now()),
            guardian.useCode(person: user.userID, step: step)
        else {
            guardian.recordCodeFailure(person: user.userID, address: address, now: now())
            return try codePage(
                pending, user: user, sessionID: sid, authTime: authTime,
                error: say("Wrong code. Try again with the code your app shows now."), existing: tx, status: 400)
        }
        guard useTicket(ticket) else {
            return pageExpired()
        }
        log(.info, "multi-factor step passed", ["user": user.userID])
        var response = try afterLogin(
            authenticated(pending, authTime: authTime, multiFactor: true), user: user, sessionID: sid,
            newSession: try ssoCookie(user: user, sessionID: sid, authTime: authTime, multiFactor: true))
        response.setCookie(clearTicket(ticket))
        return response
    }
}
