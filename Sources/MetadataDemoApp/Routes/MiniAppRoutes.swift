import Auth0Web
import Web

/// Each mini app's door: nginx asks `/auth/check/NAME` before every request to the app, and
/// shows `/auth/refused/NAME` when the answer is no.
extension Routes {
    /// `GET /auth/check/NAME`, for nginx `auth_request` in the app's location: 401 with the login
    /// link for a visitor, 403 (and a log line naming the rule) for a person the app's rules keep
    /// out, else 204 with who they are, an identity assertion for this app's audience alone, the
    /// language of the product's pages (`X-Auth-Language`: `en` or `zh`) and, for an app with an
    /// API, the person's access token for that API (`X-Auth-Access-Token`, which nginx passes to
    /// this app only). A token this worker remembers is answered on a page
    /// thread; finding one in the store or at the tenant waits.
    func miniAppCheck(_ app: MiniApp, _ context: RequestContext) throws -> Response {
        let now = Int64(services.clock.now())
        // Most checks need only what the session holds and, for an app with an API, a token this
        // worker remembers.
        guard var session = context.session else { return Routes.loginNeeded(context) }
        if let answer = answerBeforeToken(app, session, now, context) { return answer }
        guard let api = app.api else { return admitted(app, session, token: nil, now, context) }
        if let token = services.apiTokens.remembered(for: session, audience: api.audience, scopes: api.scopes) {
            return admitted(app, session, token: token, now, context)
        }
        // The token must come from the store or the tenant, which may rotate the session's refresh token.
        switch try apiToken(api, of: app, for: &session, context) {
        case .token(let token): return admitted(app, session, token: token, now, context)
        case .answer(let response): return response
        }
    }

    /// The answer a check gives before any API token is looked at, if the app's rules already
    /// decide: refused, or a login too old or without the second factor the app needs.
    private func answerBeforeToken(_ app: MiniApp, _ session: Session, _ now: Int64, _ context: RequestContext)
        -> Response?
    {
        switch app.admission(for: session, now: now) {
        case .refused(let rule): return refuse(app, rule, context)
        case .needsAuthentication(let stepUp):
            // Log in again, asking for what the app needs.
            context.log(.info, "mini_app_step_up", ["app": app.name])
            return Routes.loginNeeded(context, stepUp: stepUp)
        case .admitted: return nil
        }
    }

    /// 204 for a person the app's rules admit with `token` (nil for an app without an API), or
    /// 403 for a rule only the token settles.
    private func admitted(
        _ app: MiniApp, _ session: Session, token: APIToken?, _ now: Int64, _ context: RequestContext
    ) -> Response {
        if let token, let rule = app.admission(for: session, token: token, now: now).refusingRule {
            return refuse(app, rule, context)
        }
        let assertion = try? services.assertions?.assertion(for: session, audience: app.assertionAudience)
        var response = Routes.admitted(session, assertion: assertion)
        if let token { response.add("X-Auth-Access-Token", token.value) }
        // The app speaks the language the product's pages do, so the two always agree.
        response.add("X-Auth-Language", context.language.rawValue)
        return fitting(response, of: app, context)
    }

    /// The most the headers a check writes may hold. nginx reads the check's whole answer head
    /// into one buffer (`fastcgi_buffer_size 32k` in the checks' location: the production site
    /// and `scripts/nginx-conf`) and answers 502 "upstream sent too big header" when it does not
    /// fit; the rest of the buffer is kept for what comes beside these headers (the security
    /// headers, a renewed session's cookies, the FastCGI framing).
    static let checkHeadersLimit = 24 * 1024

    /// `admitted`, or a refusal the person can read when it would not fit nginx's buffer (a
    /// provider that puts many groups or roles in its tokens): never nginx's 502 or a redirect
    /// loop. The largest answer given is a gauge.
    private func fitting(_ admitted: Response, of app: MiniApp, _ context: RequestContext) -> Response {
        let bytes = admitted.headers.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 }
        guard bytes > Self.checkHeadersLimit else {
            services.metrics.checkAnswer(bytes: bytes)
            return admitted
        }
        context.log(
            .warning, "mini_app_answer_too_large",
            ["app": app.name, "bytes": String(bytes), "limit": String(Self.checkHeadersLimit)])
        return refusal(.tooLarge)
    }

    /// A check's token for the app's API, or its answer when there is none to hand on.
    private enum TokenOutcome {
        case token(APIToken)
        case answer(Response)
    }

    /// The person's token for `api` when this worker remembers none: from the store or the
    /// tenant, which waits; the refresh token it rotated is kept in this browser's session.
    private func apiToken(_ api: MiniAppAPI, of app: MiniApp, for session: inout Session, _ context: RequestContext)
        throws -> TokenOutcome
    {
        try context.requireWaiting()
        let spent = session.refreshToken
        do {
            let token = try services.apiTokens.token(for: &session, audience: api.audience, scopes: api.scopes)
            if session.refreshToken != spent {
                let rotated = session.refreshToken
                context.updateSession { $0.refreshToken = rotated }
            }
            return .token(token)
        } catch is SessionEnded {
            services.endEndedByTenant(context)
            return .answer(Routes.loginNeeded(context))
        } catch let error as APITokenUnavailable where error.cause == .scopeNotGranted {
            // The provider did not grant the person what the app needs: a refusal like a rule's.
            return .answer(refuse(app, .permissions(api.scopes), context, why: .permissions))
        } catch {
            let reason = (error as? APITokenUnavailable)?.reason ?? "\(error)"
            context.log(.warning, "mini_app_api_token_unavailable", ["app": app.name, "reason": reason])
            return .answer(refusal(.apiUnavailable))
        }
    }

    /// 403 for nginx, and the log line that names the rule (never the person's values);
    /// `X-Auth-Refusal` tells the refusal page what only the check could see.
    private func refuse(_ app: MiniApp, _ rule: EntryRule, _ context: RequestContext, why: CheckRefusal? = nil)
        -> Response
    {
        context.log(.info, "mini_app_refused", ["app": app.name, "rule": rule.name])
        return why.map(refusal) ?? Response(status: 403)
    }

    /// 403 for nginx, saying what only the check could see.
    private func refusal(_ why: CheckRefusal) -> Response {
        var response = Response(status: 403)
        response.add(CheckRefusal.header, why.rawValue)
        return response
    }

    /// `GET /auth/refused/NAME`: the page nginx shows for the check's 403, in the person's
    /// language, saying what is missing and nothing more (not the domains, roles or permissions
    /// that would let them in). Asked again after the rules changed (or by hand), it sends a
    /// visitor to log in and a person now let in to the app.
    func miniAppRefused(_ app: MiniApp, _ context: RequestContext) throws -> Response {
        guard let session = context.session else {
            return Response.redirect(to: Routes.loginLink(returnTo: app.path), status: 303)
        }
        let now = Int64(services.clock.now())
        var key = app.admission(for: session, now: now).refusingRule?.wordsKey
        if key == nil, let api = app.api {
            // What the check saw of the token (nginx passes its X-Auth-Refusal as `why`): only
            // a choice among these sentences, whoever writes it.
            let why = (try? FormData(urlEncoded: Array(context.request.query.utf8)))?["why"]
            if let refusal = why.flatMap(CheckRefusal.init(rawValue:)) {
                key = refusal.wordsKey
            } else {
                try context.requireWaiting()
                if let token = services.apiTokens.kept(for: session, audience: api.audience, scopes: api.scopes) {
                    key = app.admission(for: session, token: token, now: now).refusingRule?.wordsKey
                } else {
                    key = CheckRefusal.apiUnavailable.wordsKey
                }
            }
        }
        guard let key else { return Response.redirect(to: app.path, status: 303) }
        return context.pages.problem(
            status: 403, key: key, arguments: ["app": app.title(in: context.language)])
    }
}

extension Routes {
    /// A check or refusal page for a mini app the mini-apps file does not name (an app's nginx
    /// location added before its entry in the file): the check refuses with `unknown_app`, and a
    /// warning (at most one a minute: anyone can ask) names the app and the file, so nginx shows a
    /// page saying the app is not set up rather than its bare 500 for an unexpected status; nil
    /// for any other path.
    func unknownMiniApp(_ context: RequestContext) -> Response? {
        let path = context.request.path
        for (prefix, isCheck) in [("/auth/check/", true), ("/auth/refused/", false)] where path.hasPrefix(prefix) {
            let name = String(path.dropFirst(prefix.count))
            guard MiniAppsReader.isName(name), services.miniApps.app(named: name) == nil else { return nil }
            guard isCheck else {
                return context.pages.problem(
                    status: 403, key: CheckRefusal.unknownApp.wordsKey, arguments: ["app": name])
            }
            if let count = anonymousWarnings.unknownMiniApp.add() {
                context.log(
                    .warning, "mini app check for an app the mini-apps file does not name",
                    [
                        "app": name, "file": services.miniApps.file ?? "(none: MINI_APPS_FILE is not set)",
                        "count": String(count),
                    ])
            }
            return refusal(.unknownApp)
        }
        return nil
    }
}
