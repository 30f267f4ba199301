import Auth0Web
import Web

/// Single sign-on for sibling apps behind the same nginx: `auth_request` and a JSON profile.
extension Routes {
    /// `GET /auth/check`, for nginx `auth_request`: 204 with the person's id, email and name in
    /// headers when the session is valid (extending it when due), 401 otherwise, with the login
    /// link that brings the visitor back to what they asked for (`X-Original-URI`, set by nginx)
    /// in `X-Auth-Login`: nginx cannot percent-encode a query, so a path with `&` in it would
    /// come back cut short.
    func authCheck(_ request: Request) throws -> Response {
        let loaded = services.sessions.load(from: request.cookies)
        guard let session = loaded.session else {
            var response = Response(status: 401)
            let returnTo = ReturnPath.sanitize(request.header("x-original-uri"))
            response.add("X-Auth-Login", "/login?" + PercentEncoding.formEncode([("returnTo", returnTo)]))
            response.add("Cache-Control", "no-store")
            return response
        }
        var response = Response(status: 204)
        response.add("X-Auth-User-Id", Routes.headerSafe(session.profile.sub))
        response.add("X-Auth-Email", Routes.headerSafe(session.profile.email))
        response.add("X-Auth-Name", Routes.headerSafe(session.profile.name))
        response.add("Cache-Control", "no-store")
        if services.sessions.needsTouch(loaded) { try store(session, replacing: loaded, in: &response) }
        return response
    }

    /// `GET /me`: the profile and user metadata as JSON for sibling pages' scripts; never tokens.
    func me(_ request: Request) -> Response {
        guard let (session, _) = session(request) else {
            var response = Response.json(JSONValue.object(["error": "not_logged_in"]).serialized(), status: 401)
            response.add("Cache-Control", "no-store")
            return response
        }
        let profile = session.profile
        let body: JSONValue = .object([
            "sub": .string(profile.sub), "name": .string(profile.name), "email": .string(profile.email),
            "email_verified": .bool(profile.emailVerified), "picture": .string(profile.picture),
            "updated_at": .string(profile.updatedAt),
            "user_metadata": .object(["personal_affirmation": .string(session.metadata.affirmation)]),
        ])
        var response = Response.json(body.serialized())
        response.add("Cache-Control", "no-store")
        return response
    }

    /// Header values carry no control characters (a name could hold anything).
    static func headerSafe(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }))
    }
}
