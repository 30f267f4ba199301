import OpenSSLCrypto
import Web

/// JWT-Secured Authorization Requests (JAR, RFC 9101) as Auth0's "Authorization Code Flow with
/// JWT-Secured Authorization Requests (JAR)" describes them: the parameters of `/authorize` or
/// `/oauth/par` inside a JWT in `request`, signed with a key registered for the application
/// ("Configure JWT-Secured Authorization Requests": `signed_request_object.credentials`, at most
/// two; a `kid` names one), `alg` RS256, RS384 or PS256, `typ` `jwt` or `oauth-authz-req+jwt`,
/// `iss` and `client_id` the application, `aud` the tenant's URL with its trailing slash, and the
/// optional `nbf` (past), `exp` (future) and `jti` (at most 64 bytes). Under the compliance level
/// `fapi1_adv_pkj_par` ("Configure FAPI Compliance"): a request object always, PS256 only, and
/// `nbf` at most 60 minutes old and `exp` at most 60 minutes after it, both required.
extension DevTenant {
    /// The most a FAPI request object may span, and how old its `nbf` may be.
    static let requestObjectSpan = 3600.0

    /// What a request asks, with its request object read: the parameters inside it (RFC 9101
    /// §6.3: only those count, and the `client_id` beside it must be the same), or the request's
    /// own when it has none and needs none. A refusal is an OAuth error and its description.
    func requestObjectParameters(_ params: [String: String], client: TenantConfig.Client) -> Result<
        [String: String], OAuthRefusal
    > {
        guard let token = params["request"] else {
            if client.requiresRequestObjects || client.isFAPI {
                return .failure(
                    OAuthRefusal("invalid_request", "A signed request object (JAR) is required for this application"))
            }
            return .success(params)
        }
        func refuse(_ why: String) -> Result<[String: String], OAuthRefusal> {
            log(.info, "request object refused", ["client": client.clientID, "reason": why])
            return .failure(OAuthRefusal("invalid_request_object", "The request object is not valid: \(why)"))
        }
        guard let jws = CompactJWS(token) else { return refuse("not a signed JWT") }
        let (header, claims) = (jws.header, jws.claims)
        let algorithm = header["alg"]?.string ?? ""
        let allowed = client.isFAPI ? ["PS256"] : ClientCredential.algorithms
        guard allowed.contains(algorithm) else { return refuse("alg must be \(allowed.joined(separator: ", "))") }
        guard let type = header["typ"]?.string, ["jwt", "oauth-authz-req+jwt"].contains(type.lowercased()) else {
            return refuse("typ must be jwt or oauth-authz-req+jwt")
        }
        guard ClientCredential.signed(jws, byOneOf: client.requestObjectKeys) else {
            return refuse("its signature is not by a registered key")
        }
        guard claims["iss"]?.string == client.clientID, claims["client_id"]?.string == client.clientID,
            params["client_id"] ?? client.clientID == client.clientID
        else { return refuse("iss and client_id must be the application's client_id") }
        guard TenantSigner.audiences(claims).contains(config.issuer) else {
            return refuse("aud must be \(config.issuer)")
        }
        if let why = requestObjectTimeProblem(claims, fapi: client.isFAPI) { return refuse(why) }
        if let jti = claims["jti"]?.string, jti.utf8.count > 64 { return refuse("jti is longer than 64 bytes") }
        var inside: [String: String] = [:]
        for (name, value) in claims.object ?? [:] where !["iss", "aud", "iat", "nbf", "exp", "jti"].contains(name) {
            if let text = value.string {
                inside[name] = text
            } else if let number = value.number, number == number.rounded() {
                inside[name] = String(Int64(number))
            } else {
                return refuse("\(name) must be a string")
            }
        }
        return .success(inside)
    }

    /// What is wrong with a request object's `nbf` and `exp`, or nil.
    private func requestObjectTimeProblem(_ claims: JSONValue, fapi: Bool) -> String? {
        let now = now()
        let nbf = claims["nbf"]?.number
        let exp = claims["exp"]?.number
        if let nbf, nbf > now + 1 { return "nbf is in the future" }
        if let exp, exp <= now { return "it has expired" }
        guard fapi else { return nil }
        guard let nbf, let exp else { return "nbf and exp are required by the configured compliance level" }
        if now - nbf > Self.requestObjectSpan { return "nbf is more than 60 minutes old" }
        if exp - nbf > Self.requestObjectSpan { return "exp is more than 60 minutes after nbf" }
        return nil
    }
}

/// An OAuth error the tenant answers: its code and description.
struct OAuthRefusal: Error {
    let error: String
    let description: String

    init(_ error: String, _ description: String) {
        self.error = error
        self.description = description
    }
}
