import Auth0Web
import Web

extension Routes {
    /// `GET /login[?returnTo=/path]`: starts the authorization-code flow with PKCE, state and
    /// nonce, keeping the transaction in its own sealed cookie.
    func login(_ request: Request) throws -> Response {
        let query = try request.queryParameters()
        return try beginLogin(request, returnTo: ReturnPath.sanitize(query["returnTo"]))
    }

    /// Sends the browser to Universal Login; `pendingAffirmation` travels sealed in the transaction.
    func beginLogin(_ request: Request, returnTo: String, pendingAffirmation: String? = nil, status: Int = 302) throws
        -> Response
    {
        let transaction = LoginTransaction.begin(returnTo: returnTo, pendingAffirmation: pendingAffirmation)
        var response = Response.redirect(to: services.settings.authorizeURL(for: transaction), status: status)
        for cookie in try services.transactions.start(transaction, existing: request.cookies) {
            response.setCookie(cookie)
        }
        return response
    }

    /// `GET /callback`: checks state, exchanges the code, verifies the ID token, fetches the
    /// metadata once and stores the session. Each failure has its own page with `Log in`.
    func callback(_ request: Request) throws -> Response {
        let query = try request.queryParameters()
        let state = query["state"] ?? ""
        var response: Response
        do {
            response = try finishLogin(query, state: state, request: request)
        } catch let error as AuthError {
            log(
                .warning, "login failed",
                ["id": request.requestID, "reason": error.code.rawValue, "detail": error.detail])
            services.metrics.loginFailed(reason: error.code.rawValue)
            response = pages.loginFailedPage(error)
        }
        // The transaction is used once, whatever happened.
        if let used = services.transactions.finish(state: state) { response.setCookie(used) }
        return response
    }

    private func finishLogin(_ query: FormData, state: String, request: Request) throws -> Response {
        guard !state.isEmpty else { throw AuthError(.missingState) }
        guard let transaction = services.transactions.find(state: state, in: request.cookies) else {
            throw AuthError(.unknownState)
        }
        if let error = query["error"] { throw AuthError(.tenantError, error) }
        guard let code = query["code"], !code.isEmpty else { throw AuthError(.missingCode) }
        let tokens = try services.tokens.exchange(code: code, codeVerifier: transaction.codeVerifier)
        guard let idToken = tokens.idToken else { throw AuthError(.badTokenResponse, "no id_token") }
        let claims = try services.idTokens.verify(idToken, nonce: transaction.nonce)
        let now = Int64(services.clock.now())
        var session = Session(
            profile: Session.Profile(
                sub: claims["sub"]?.string ?? "", name: claims["name"]?.string ?? claims["nickname"]?.string ?? "",
                email: claims["email"]?.string ?? "", emailVerified: claims["email_verified"]?.bool ?? false,
                picture: claims["picture"]?.string.flatMap { MetadataSnapshot.isSafeLink($0) ? $0 : nil } ?? "",
                updatedAt: claims["updated_at"]?.string ?? ""),
            accessToken: AccessToken(value: tokens.accessToken, expiresAt: now + tokens.expiresIn),
            refreshToken: tokens.refreshToken, tenantSessionID: claims["sid"]?.string, csrfToken: PKCE.randomToken(),
            createdAt: now)
        log(.info, "login", ["id": request.requestID, "user": session.profile.sub])
        services.metrics.login()

        // Like the app's getMetadata() after login: once, then kept in the session.
        var pageError: String?
        if let pending = transaction.pendingAffirmation {
            do {
                session.metadata = try saveAffirmation(pending, session: &session)
                session.flash = "Affirmation saved."
            } catch let error as ManagementError {
                pageError = error.publicMessage
                session.metadata = (try? fetchMetadata(&session)) ?? MetadataSnapshot()
            }
        } else {
            do {
                session.metadata = try fetchMetadata(&session)
            } catch let error as ManagementError {
                log(.warning, "metadata fetch after login failed", ["id": request.requestID, "error": "\(error)"])
                session.flash = "Your affirmation could not be loaded: \(error.publicMessage)"
            }
        }
        var response: Response
        if let pageError, let pending = transaction.pendingAffirmation {
            // The save still failed: show the page with the text they typed, nothing lost.
            response = pages.profile(session, typed: pending, saveError: pageError, status: 503)
        } else {
            response = .redirect(to: transaction.returnTo)
        }
        let loaded = services.sessions.load(from: request.cookies)
        try store(session, replacing: loaded, in: &response)
        return response
    }
}

extension Pages {
    /// The page for a failed login: what happened in plain words, and `Log in` (never a loop).
    public func loginFailedPage(_ error: AuthError) -> Response {
        let (status, title, message): (Int, String, String) =
            switch error.code {
            case .missingState, .unknownState:
                (400, "Login expired", "This login has expired or was started in another browser. Please log in again.")
            case .tenantError:
                switch error.detail {
                case "access_denied": (403, "Login cancelled", "The login was cancelled or access was denied.")
                case "unauthorized":
                    (403, "Account blocked", "This account is blocked. Contact the site's administrator.")
                case "login_required", "consent_required", "interaction_required":
                    (401, "Login needed", "Please log in to continue.")
                default: (400, "Login failed", "Auth0 could not log you in. Please try again.")
                }
            case .missingCode, .codeExchangeFailed, .badTokenResponse:
                (400, "Login failed", "Auth0 did not accept this login. Please log in again.")
            case .tenantUnreachable, .jwksUnavailable:
                (503, "Auth0 unreachable", "Auth0 could not be reached. Please try again in a moment.")
            default:
                (400, "Login not verified", "The login could not be verified. Please log in again.")
            }
        return problem(status: status, title: title, message: message, offerLogin: true)
    }
}
