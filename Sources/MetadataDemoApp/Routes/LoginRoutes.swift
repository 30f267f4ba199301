import Auth0Web
import Web

extension Routes {
    /// `GET /login[?returnTo=/path][&max_age=N][&acr_values=…]`: starts the authorization-code
    /// flow with PKCE, state and nonce, keeping the transaction in its own sealed cookie; with
    /// `max_age` or `acr_values` (a mini app's step-up, or its API's RFC 9470 challenge), asks
    /// the provider for them and checks the ID token shows them.
    func login(_ context: RequestContext) throws -> Response {
        let query = try context.request.queryParameters()
        // From the iOS app (Native to Web SSO): Universal Login logs the person in without a password.
        var transferToken = query["session_transfer_token"]
        if transferToken != nil, !Self.isOpenedFromOutsideTheWeb(context.request) {
            // A link on another site carrying the attacker's own token would log this browser in
            // as the attacker (login CSRF): their next save would go to the attacker's metadata.
            context.log(.warning, "session transfer token dropped: not opened by the app")
            transferToken = nil
        }
        return try beginLogin(
            context, returnTo: ReturnPath.sanitize(query["returnTo"]), sessionTransferToken: transferToken,
            stepUp: StepUp(maxAge: query["max_age"], acrValues: query["acr_values"]))
    }

    /// True when the browser says the navigation did not come from a page (`Sec-Fetch-Site:
    /// none`: opened by an app, typed, a bookmark), or says nothing (a browser without Fetch
    /// Metadata): how the app opens its address. A link followed from any site is not.
    static func isOpenedFromOutsideTheWeb(_ request: Request) -> Bool {
        guard let site = request.headers["sec-fetch-site"] else { return true }
        return site == "none"
    }

    /// Sends the browser to Universal Login; `pendingAffirmation` travels sealed in the transaction.
    /// The request's cookies are looked at so older transaction cookies can be capped. With
    /// pushed authorization requests, the request goes to the provider first and the browser
    /// carries only its reference; when the provider refuses it, the person reads why.
    func beginLogin(
        _ context: RequestContext, returnTo: String, pendingAffirmation: String? = nil,
        sessionTransferToken: String? = nil, stepUp: StepUp? = nil,
        status: Int = 302
    ) throws -> Response {
        let transaction = LoginTransaction.begin(
            returnTo: returnTo, pendingAffirmation: pendingAffirmation, stepUp: stepUp)
        // A language chosen with the switch is Universal Login's too; else Auth0 follows the browser.
        let uiLocales = Language.chosen(context.cookies)?.uiLocale
        let location: String
        do {
            location = try services.auth0.loginStart.location(
                for: transaction, uiLocales: uiLocales, sessionTransferToken: sessionTransferToken)
        } catch {
            context.log(
                .warning, "login could not start",
                ["reason": error.code.rawValue, "detail": error.detail, "description": error.oauthDescription])
            services.metrics.loginFailed(reason: error.code.rawValue)
            return context.pages.page(for: error)
        }
        var response = Response.redirect(to: location, status: status)
        for cookie in try services.auth0.transactions.start(transaction, existing: context.cookies) {
            response.setCookie(cookie)
        }
        return response
    }

    /// `GET /callback`: finishes the login (see `LoginCompletion`) and stores the session. Each
    /// failure has its own page with `Log in`; the transaction is used once, whatever happened.
    func callback(_ context: RequestContext) throws -> Response {
        let query = try context.request.queryParameters()
        var response: Response
        do {
            let login = try services.auth0.logins.finish(query: query, cookies: context.cookies)
            context.startSession(login.session)
            services.registry.loggedIn(
                login.session, device: DeviceName(userAgent: context.request.header("user-agent")))
            if services.frontchannelLogout, let sid = login.session.tenantSessionID {
                services.ledger.providerSessions.began(sid)  // what a front-channel logout may end
            }
            context.log(.info, "login", ["user": login.session.profile.sub])
            services.metrics.login()
            response = .redirect(to: login.returnTo)
            switch login.metadata {
            case .loaded: break
            case .saved: context.setFlash(.saved)
            case .notLoaded(let error):
                context.log(.warning, "metadata fetch after login failed", ["error": "\(error)"])
                context.setFlash(.notLoaded(because: Words(error)))
            case .notSaved(let text, let error):
                // The save still failed: the page shows the text they typed, nothing lost.
                context.log(.warning, "save after login failed", ["error": "\(error)"])
                response = profilePage(login.session, context, typed: text, saveError: Words(error), status: 503)
            }
        } catch {
            context.log(
                .warning, "login failed",
                ["reason": error.code.rawValue, "detail": error.detail, "description": error.oauthDescription])
            services.metrics.loginFailed(reason: error.code.rawValue)
            response = context.pages.page(for: error)
        }
        if let used = services.auth0.transactions.finish(state: query["state"] ?? "") { response.setCookie(used) }
        return response
    }
}
