import OpenSSLCrypto
import Web

/// `/userinfo`, and what the token endpoints share: the token a request presents, OAuth's error
/// answer, and a request's parameters (form or JSON) read once each.
extension DevTenant {
    func userinfo(_ request: Request) -> Response {
        guard let (token, dpop) = presentedToken(request),
            let claims = signer.verifyAccessToken(token, issuer: config.issuer, now: now()),
            TenantSigner.audiences(claims).contains(config.userinfoAudience),
            let sub = claims["sub"]?.string, let user = store.user(id: sub)
        else {
            var response = Response.text("Unauthorized", status: 401)
            response.add("WWW-Authenticate", "Bearer error=\"invalid_token\"")
            return response
        }
        if let refusal = boundTokenRefusal(request, token: token, dpopScheme: dpop, claims: claims) { return refusal }
        let scopes = Set((claims["scope"]?.string ?? "").split(separator: " ").map(String.init))
        var info = user.profileClaims
        if !scopes.contains("profile") { ["name", "nickname", "picture", "updated_at"].forEach { info[$0] = nil } }
        if !scopes.contains("email") { ["email", "email_verified"].forEach { info[$0] = nil } }
        return .json(JSONValue.object(info).serialized())
    }

    /// The access token a request presents, `Bearer` or `DPoP` (RFC 9449 §7.1), and which.
    func presentedToken(_ request: Request) -> (token: String, dpop: Bool)? {
        guard let header = request.header("authorization") else { return nil }
        let lower = header.lowercased()
        let dpop = lower.hasPrefix("dpop ")
        guard dpop || lower.hasPrefix("bearer ") else { return nil }
        let token = String(header.dropFirst(dpop ? 5 : 7)).trimmingSpaces()
        return token.isEmpty ? nil : (token, dpop)
    }

    func oauthError(_ status: Int, _ error: String, _ description: String) -> Response {
        var response = Response.json(
            JSONValue.object(["error": .string(error), "error_description": .string(description)]).serialized(),
            status: status)
        response.add("Cache-Control", "no-store")
        return response
    }

    /// A request refused before it is read further: the answer to give.
    struct Refusal: Error {
        let answer: Response
    }

    /// Form or JSON body parameters of a token request; refused (400 `invalid_request`) when the
    /// body cannot be read.
    func tokenParameters(_ request: Request) throws(Refusal) -> [String: String] {
        let type = request.header("content-type")?.lowercased() ?? ""
        if type.hasPrefix("application/json") {
            guard let object = JSONValue.parse(request.body)?.object else {
                throw Refusal(answer: oauthError(400, "invalid_request", "The request body could not be read"))
            }
            return object.compactMapValues(\.string)
        }
        return try formParameters(request)
    }

    /// A form body's parameters; refused (400 `invalid_request`) when it cannot be read or names a
    /// parameter twice, as RFC 6749 §3.2 says a request MUST NOT (and strict providers refuse).
    func formParameters(_ request: Request) throws(Refusal) -> [String: String] {
        guard let form = try? FormData(urlEncoded: request.body) else {
            throw Refusal(answer: oauthError(400, "invalid_request", "The request body could not be read"))
        }
        if let repeated = form.repeatedName {
            throw Refusal(answer: oauthError(400, "invalid_request", "Parameter \(repeated) is repeated"))
        }
        return form.firstValues
    }
}
