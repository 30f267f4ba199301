import Web

/// What `/authorize` makes of a request before deciding the login: the request resolved, and the
/// application's policy over it.
extension DevTenant {
    /// An authorization request as `/authorize` resolved it: the application, its parameters (as
    /// pushed, from its request object, or in the query), whether it was pushed, and where its
    /// answer goes, in the response mode it asked.
    struct AuthorizationRequest {
        let client: TenantConfig.Client
        let query: FormData
        let pushed: Bool
        let redirectURI: String

        /// The answer that refuses it at its callback, `state` returned.
        func fail(_ error: String, _ description: String) -> Response {
            var pairs = [("error", error), ("error_description", description)]
            if let state = query["state"] { pairs.append(("state", state)) }
            return DevTenant.answer(redirectURI, pairs, mode: query["response_mode"])
        }
    }

    /// The request's parameters, its application and its callback; an error page (never a
    /// redirect) for what cannot be answered at a callback: a repeated parameter, an unknown
    /// pushed reference, an unknown application, a bad request object, a callback not allowed.
    mutating func resolveAuthorization(_ request: Request) throws -> Result<AuthorizationRequest, Refusal> {
        // Each an error page of its own (the language check reads their sentences where they are).
        func page(_ answer: Response) -> Result<AuthorizationRequest, Refusal> { .failure(Refusal(answer: answer)) }
        let asked = try request.queryParameters()
        if let repeated = asked.repeatedName {
            return page(message(400, "invalid_request", "The parameter \(repeated) is repeated."))
        }
        // A pushed request's reference stands for its parameters (RFC 9126).
        guard var query = authorizationQuery(asked) else {
            return page(
                message(
                    400, "invalid_request_uri",
                    "The request_uri is unknown, was used already, has expired, or is another application's."))
        }
        let pushed = asked["request_uri"] != nil
        // The pages speak the language the pushed request asks for, as they would the query's.
        if pushed { speak(request, uiLocales: query["ui_locales"]) }
        guard let clientID = query["client_id"], let client = directory.client(clientID) else {
            return page(
                message(400, "invalid_request", "Unknown client: the client_id is not an application of this tenant."))
        }
        // A request object's parameters stand for the query's (RFC 9101 §6.3); a pushed request's
        // object was read when it was pushed.
        if !pushed {
            switch requestObjectParameters(query.firstValues, client: client) {
            case .failure(let refusal): return page(message(400, refusal.error, refusal.description))
            case .success(let parameters):
                query = FormData(pairs: parameters.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
            }
        }
        guard let redirectURI = query["redirect_uri"], client.callbacks.contains(redirectURI) else {
            return page(
                message(
                    400, "Callback URL mismatch", "The redirect_uri is not in the application's Allowed Callback URLs.")
            )
        }
        return .success(AuthorizationRequest(client: client, query: query, pushed: pushed, redirectURI: redirectURI))
    }

    /// What the application's policy refuses of the request, as its callback is told: no
    /// connection enabled for it, a request not pushed that its FAPI level or its setting
    /// requires pushed, a response mode or type not taken, PKCE other than its level asks.
    func policyRefusal(_ authorization: AuthorizationRequest) -> (String, String)? {
        let (client, query) = (authorization.client, authorization.query)
        // The login page offers the database connection only to an application it is enabled for.
        guard directory.connectionEnabled(for: client.clientID) else {
            return ("invalid_request", "no connections enabled for the client")
        }
        if client.isFAPI, !authorization.pushed {
            return ("invalid_request", "Pushed Authorization Requests are required by the configured compliance level")
        }
        if client.requiresPushedAuthorization, !authorization.pushed {
            return ("invalid_request", "Pushed Authorization Requests are required for this application")
        }
        if let mode = query["response_mode"], !DevTenant.responseModes.contains(mode) {
            return ("invalid_request", "Unsupported response_mode: \(mode)")
        }
        guard query["response_type"] == "code" else {
            return ("unsupported_response_type", "Unsupported response type: \(query["response_type"] ?? "")")
        }
        let method = query["code_challenge_method"] ?? "plain"
        if query["code_challenge"] != nil, method != "S256", method != "plain" {
            return ("invalid_request", "Unsupported code_challenge_method")
        }
        if client.isFAPI, query["code_challenge"] == nil || method != "S256" {
            return ("invalid_request", "PKCE with S256 is required by the configured compliance level")
        }
        return nil
    }

    /// The login the request is for: what the tenant keeps of it while the person logs in.
    func pendingLogin(_ authorization: AuthorizationRequest) -> [String: JSONValue] {
        let query = authorization.query
        var pending: [String: JSONValue] = [
            "client_id": .string(authorization.client.clientID), "redirect_uri": .string(authorization.redirectURI),
            "scope": .string(query["scope"] ?? "openid"), "method": .string(query["code_challenge_method"] ?? "plain"),
        ]
        // `dpop_jkt` binds the code to a DPoP key (RFC 9449 §10): its token request must prove that key.
        for name in [
            "state", "nonce", "audience", "code_challenge", "max_age", "acr_values", "dpop_jkt", "response_mode",
        ] {
            if let value = query[name] { pending[name] = .string(value) }
        }
        if query["prompt"] == "consent" { pending["prompt"] = .string("consent") }
        // The pages after this one (the form's answers) speak the same language.
        if let uiLocales = query["ui_locales"] { pending["ui_locales"] = .string(uiLocales) }
        return pending
    }
}
