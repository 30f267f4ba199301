import Web

/// `POST /oauth/par`: Auth0's pushed authorization requests (RFC 9126), as its Authentication API
/// documents them. The application posts what it would put in the `/authorize` query, with its
/// credentials as at `/oauth/token`; the answer is `201` with a `request_uri`
/// (`urn:ietf:params:oauth:request_uri:…`) that works once at `/authorize`, for thirty seconds
/// (a fixed lifetime at Auth0), and only for that application.
extension DevTenant {
    /// The prefix of every reference this tenant hands out.
    static let requestURIPrefix = "urn:ietf:params:oauth:request_uri:"
    /// What proves the application, kept out of the request `/authorize` acts on.
    static let credentialFields: Set = ["client_secret", "client_assertion", "client_assertion_type"]
    /// How long a pushed request waits for the browser (fixed, as Auth0's).
    static let pushedRequestSeconds = 30.0

    func pushAuthorizationRequest(_ request: Request) -> Response {
        guard config.allowsPushedAuthorization else {
            return oauthError(403, "access_denied", "Pushed Authorization Requests are not enabled for this tenant")
        }
        // A form, as RFC 9126 §2.1 has it (no JSON body, unlike Auth0's token endpoint).
        var params: [String: String]
        do { params = try formParameters(request) } catch { return error.answer }
        guard let client = authenticatedClient(request, params) else {
            return oauthError(401, "invalid_client", "Client authentication failed")
        }
        // A request object (JAR) carries the request: its parameters stand for the form's.
        switch requestObjectParameters(params, client: client) {
        case .failure(let refusal): return oauthError(400, refusal.error, refusal.description)
        case .success(let parameters): params = parameters
        }
        // RFC 9449 §10.1: a proof on the push binds the code to its key, as `dpop_jkt` would; both
        // given, they must name the same key.
        if config.allowsDPoP {
            let proof = checkProof(request, htu: proofTarget(request), accessToken: nil)
            if let refusal = tokenProofRefusal(proof) { return refusal }
            if case .valid(let jkt) = proof {
                guard params["dpop_jkt"] == nil || params["dpop_jkt"] == jkt else {
                    return oauthError(400, "invalid_dpop_proof", "dpop_jkt does not name the DPoP proof's key")
                }
                params["dpop_jkt"] = jkt
            }
        }
        guard params["client_id"] == nil || params["client_id"] == client.clientID else {
            return oauthError(400, "invalid_request", "The client_id is not the authenticated client's")
        }
        // RFC 9126 §2.1: a pushed request cannot refer to another one.
        guard params["request_uri"] == nil else {
            return oauthError(400, "invalid_request", "request_uri is not allowed in a pushed authorization request")
        }
        guard let redirectURI = params["redirect_uri"], client.callbacks.contains(redirectURI) else {
            return oauthError(
                400, "invalid_request", "The redirect_uri is not in the application's Allowed Callback URLs")
        }
        guard params["response_type"] == "code" else {
            return oauthError(
                400, "unsupported_response_type", "Unsupported response type: \(params["response_type"] ?? "")")
        }
        // The credentials stay here; `/authorize` reads the rest as if it were its query.
        let parameters = FormData(
            pairs: params.filter { !Self.credentialFields.contains($0.key) }.sorted { $0.key < $1.key }.map {
                ($0.key, $0.value)
            })
        let key = store.addPushedRequest(
            PushedRequest(
                clientID: client.clientID, parameters: parameters,
                expiresAt: now() + Self.pushedRequestSeconds))
        log(.info, "authorization request pushed", ["client": client.clientID])
        return Response.json(
            JSONValue.object([
                "request_uri": .string(Self.requestURIPrefix + key), "expires_in": .number(Self.pushedRequestSeconds),
            ]).serialized(), status: 201)
    }

    /// The query `/authorize` acts on: the pushed request its `request_uri` names (taken, so it
    /// works once), nil when the reference is unknown, used, expired or another application's;
    /// else the query itself.
    func authorizationQuery(_ query: FormData) -> FormData? {
        guard let reference = query["request_uri"] else { return query }
        guard reference.hasPrefix(Self.requestURIPrefix),
            let pushed = store.takePushedRequest(String(reference.dropFirst(Self.requestURIPrefix.count))),
            pushed.clientID == query["client_id"]
        else { return nil }
        // RFC 9126 §4: only what was pushed counts; the client_id beside the reference is its own.
        return pushed.parameters.pairs.contains { $0.name == "client_id" }
            ? pushed.parameters : FormData(pairs: [("client_id", pushed.clientID)] + pushed.parameters.pairs)
    }
}
