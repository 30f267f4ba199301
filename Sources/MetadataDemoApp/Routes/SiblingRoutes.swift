import Auth0Web
import Web

/// Single sign-on for sibling apps behind the same nginx: `auth_request` and a JSON profile.
extension Routes {
    /// `GET /auth/check`, for nginx `auth_request`: 204 with the person's id, email and name in
    /// headers when the session is valid (extending it when due), 401 otherwise, with the login
    /// link that brings the visitor back to what they asked for (`X-Original-URI`, set by nginx)
    /// in `X-Auth-Login`: nginx cannot percent-encode a query, so a path with `&` in it would
    /// come back cut short.
    func authCheck(_ context: RequestContext) -> Response {
        guard let session = context.session else { return Routes.loginNeeded(context) }
        return Routes.admitted(session, assertion: try? services.assertions?.assertion(for: session))
    }

    /// 401 with the login link that brings the visitor back to what they asked for, asking the
    /// provider for `stepUp` when given.
    static func loginNeeded(_ context: RequestContext, stepUp: StepUp? = nil) -> Response {
        var response = Response(status: 401)
        let returnTo = ReturnPath.sanitize(context.request.header("x-original-uri"))
        response.add("X-Auth-Login", loginLink(returnTo: returnTo, stepUp: stepUp))
        return response
    }

    /// `/login` that brings the person back to `returnTo` (a relative path), asking for `stepUp`.
    static func loginLink(returnTo: String, stepUp: StepUp? = nil) -> String {
        "/login?" + PercentEncoding.formEncode([("returnTo", returnTo)] + (stepUp?.parameters ?? []))
    }

    /// 204 telling nginx who `session`'s person is, for the sibling's request; without an
    /// assertion (none configured, or a failed signature) a sibling must trust the network.
    static func admitted(_ session: Session, assertion: String?) -> Response {
        var response = Response(status: 204)
        response.add("X-Auth-User-Id", Routes.headerSafe(session.profile.sub))
        response.add("X-Auth-Email", Routes.headerSafe(session.profile.email))
        response.add("X-Auth-Name", Routes.headerSafe(session.profile.name))
        if let assertion { response.add("X-Auth-Assertion", assertion) }
        return response  // the context extends the session when due
    }

    /// `GET /.well-known/jwks.json`: the public keys of the identity assertions, for siblings to
    /// verify them (kept five minutes: a sibling that meets an unknown `kid` asks again).
    func assertionKeys() -> Response {
        guard let assertions = services.assertions else { return Response.text("Not found\n", status: 404) }
        var response = Response.json(assertions.keySet)
        response.add("Cache-Control", "public, max-age=300")
        return response
    }

    /// `GET /client-jwks.json`: the public halves of the application's own keys, for a provider
    /// that registers this application's `jwks_uri`; 404 when it authenticates without keys.
    func clientKeys() -> Response {
        guard let document = services.clientKeys.document else { return Response.text("Not found\n", status: 404) }
        var response = Response.json(document)
        response.add("Cache-Control", "public, max-age=300")
        return response
    }

    /// `GET /me`: the profile and user metadata as JSON for sibling pages' scripts; never tokens.
    func me(_ context: RequestContext) -> Response {
        guard let session = context.session else {
            return Response.json(JSONValue.object(["error": "not_logged_in"]).serialized(), status: 401)
        }
        let profile = session.profile
        var fields: [String: JSONValue] = [
            "sub": .string(profile.sub), "name": .string(profile.name),
            "email": .string(profile.email), "picture": .string(profile.picture),
            "updated_at": .string(profile.updatedAt),
        ]
        // Only what the provider said: not a `false` it never sent, nor metadata it does not keep.
        if let verified = profile.emailVerified { fields["email_verified"] = .bool(verified) }
        if services.auth0.metadata.isOffered {
            fields["user_metadata"] = .object(["personal_affirmation": .string(session.metadata.affirmation)])
        }
        return Response.json(JSONValue.object(fields).serialized())
    }

    /// Header values carry no control characters (a name could hold anything). By byte: in UTF-8
    /// those are single ASCII bytes, so dropping them leaves valid text; most values have none and
    /// are handed on as they are (by scalar, this cost a mini app's check ~15,000 instructions).
    static func headerSafe(_ text: String) -> String {
        func isControl(_ byte: UInt8) -> Bool { byte < 0x20 || byte == 0x7F }
        guard text.utf8.contains(where: isControl) else { return text }
        return String(decoding: text.utf8.filter { !isControl($0) }, as: UTF8.self)
    }
}
