import Web

/// Where the tenant's endpoints are, as its OpenID discovery document names them. Read once at
/// start-up (and by `check-config`, the same way), so the worker calls exactly what the tenant
/// publishes: an Auth0 custom domain or a tenant on another region works unchanged.
public struct TenantEndpoints: Sendable, Equatable {
    /// `issuer`, exactly as the provider publishes it; ID tokens must name it.
    public let issuer: String
    /// `authorization_endpoint`: where Universal Login starts.
    public let authorization: String
    /// `token_endpoint`: code exchange and refresh-token renewal.
    public let token: String
    /// `jwks_uri`: the keys ID tokens are signed with.
    public let jwks: String
    /// `userinfo_endpoint`, when published.
    public let userinfo: String?
    /// `revocation_endpoint`, when published: logout revokes the refresh token there.
    public let revocation: String?
    /// `end_session_endpoint` (`/oidc/logout`), published by tenants created since November 2023.
    public let endSession: String?
    /// `token_endpoint_auth_methods_supported`, when published.
    public let authMethods: [String]?
    /// `code_challenge_methods_supported`, when published.
    public let codeChallengeMethods: [String]?
    /// `dpop_signing_alg_values_supported` (RFC 9449), when published: the provider binds tokens.
    public let dpopAlgorithms: [String]?
    /// `token_endpoint_auth_signing_alg_values_supported`, when published: how `private_key_jwt`
    /// assertions may be signed.
    public let authSigningAlgorithms: [String]?
    /// `scopes_supported`, when published.
    public let scopes: [String]?
    /// `id_token_signing_alg_values_supported`, when published.
    public let idTokenAlgorithms: [String]?
    /// `authorization_response_iss_parameter_supported` (RFC 9207): the provider names itself in
    /// every authorization response (`iss` beside `code` or `error`), so one without is refused.
    public let sendsIssuerInAuthorizationResponse: Bool
    /// `pushed_authorization_request_endpoint` (RFC 9126), when published: where a login's
    /// request is pushed before the browser goes to `authorization` with its reference.
    public let pushedAuthorization: String?
    /// `require_pushed_authorization_requests`: the provider refuses a request that was not pushed.
    public let requiresPushedAuthorization: Bool
    /// `request_parameter_supported` (OpenID Connect Discovery), when published: whether the
    /// provider takes a request object (RFC 9101) in `request`.
    public private(set) var takesRequestObjects: Bool? = nil
    /// `request_object_signing_alg_values_supported`, when published.
    public private(set) var requestObjectAlgorithms: [String]? = nil
    /// `frontchannel_logout_supported` (OpenID Connect Front-Channel Logout 1.0): the provider's
    /// logout page loads the relying parties' front-channel logout URIs (Auth0 publishes none).
    public private(set) var frontchannelLogoutSupported = false

    /// Auth0's own logout, `/v2/logout`: not an OpenID endpoint, so discovery never names it.
    public var auth0Logout: String { RelyingPartySettings.withSlash(issuer) + "v2/logout" }

    /// Auth0's documented paths under `issuer` (what the dev tenant publishes too).
    public static func documented(issuer: String) -> TenantEndpoints {
        TenantEndpoints(
            issuer: issuer, authorization: issuer + "authorize", token: issuer + "oauth/token",
            jwks: issuer + ".well-known/jwks.json", userinfo: issuer + "userinfo", revocation: issuer + "oauth/revoke",
            endSession: issuer + "oidc/logout",
            authMethods: ["client_secret_basic", "client_secret_post", "private_key_jwt"],
            scopes: ["openid", "profile", "offline_access", "name", "nickname", "picture", "email", "email_verified"],
            idTokenAlgorithms: ["HS256", "RS256", "PS256"], sendsIssuerInAuthorizationResponse: false,
            pushedAuthorization: nil, requiresPushedAuthorization: false, authSigningAlgorithms: nil,
            dpopAlgorithms: nil, codeChallengeMethods: ["S256", "plain"])
    }

    private init(
        issuer: String, authorization: String, token: String, jwks: String, userinfo: String?, revocation: String?,
        endSession: String?, authMethods: [String]?, scopes: [String]?, idTokenAlgorithms: [String]?,
        sendsIssuerInAuthorizationResponse: Bool, pushedAuthorization: String?, requiresPushedAuthorization: Bool,
        authSigningAlgorithms: [String]?, dpopAlgorithms: [String]?, codeChallengeMethods: [String]?
    ) {
        self.codeChallengeMethods = codeChallengeMethods
        self.dpopAlgorithms = dpopAlgorithms
        self.authSigningAlgorithms = authSigningAlgorithms
        self.pushedAuthorization = pushedAuthorization
        self.requiresPushedAuthorization = requiresPushedAuthorization
        self.sendsIssuerInAuthorizationResponse = sendsIssuerInAuthorizationResponse
        self.scopes = scopes
        self.idTokenAlgorithms = idTokenAlgorithms
        self.issuer = issuer
        self.authorization = authorization
        self.token = token
        self.jwks = jwks
        self.userinfo = userinfo
        self.revocation = revocation
        self.endSession = endSession
        self.authMethods = authMethods
    }

    /// The discovery document's address for `issuer`: the issuer without its trailing `/`, then
    /// `/.well-known/openid-configuration` (OpenID Connect Discovery 1.0, section 4).
    public static func discoveryURL(issuer: String) -> String {
        (issuer.hasSuffix("/") ? String(issuer.dropLast()) : issuer) + "/.well-known/openid-configuration"
    }

    /// Reads a discovery document fetched for `expectedIssuer`. Its `issuer` must be exactly the
    /// expected one (OpenID Connect Discovery 1.0, section 4.3), and every endpoint an absolute
    /// URL of the issuer's scheme or https.
    public init(discovery document: JSONValue, expectedIssuer: String) throws(DiscoveryProblem) {
        guard document.object != nil else { throw DiscoveryProblem("the discovery document is not a JSON object") }
        guard let issuer = document["issuer"]?.string, issuer == expectedIssuer else {
            throw DiscoveryProblem(
                "the tenant calls itself \(document["issuer"]?.string ?? "nothing"), not \(expectedIssuer)")
        }
        let insecureAllowed = issuer.hasPrefix("http://")  // a loopback tenant, as the settings allow
        func endpoint(_ name: String, required: Bool) throws(DiscoveryProblem) -> String? {
            guard let value = document[name]?.string else {
                if required { throw DiscoveryProblem("the discovery document has no \(name)") }
                return nil
            }
            guard value.hasPrefix("https://") || (insecureAllowed && value.hasPrefix("http://")),
                value.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F })
            else { throw DiscoveryProblem("the discovery document's \(name) is not an https URL") }
            return value
        }
        self.init(
            issuer: issuer, authorization: try endpoint("authorization_endpoint", required: true)!,
            token: try endpoint("token_endpoint", required: true)!, jwks: try endpoint("jwks_uri", required: true)!,
            userinfo: try endpoint("userinfo_endpoint", required: false),
            revocation: try endpoint("revocation_endpoint", required: false),
            endSession: try endpoint("end_session_endpoint", required: false),
            authMethods: document["token_endpoint_auth_methods_supported"]?.array?.compactMap(\.string),
            scopes: document["scopes_supported"]?.array?.compactMap(\.string),
            idTokenAlgorithms: document["id_token_signing_alg_values_supported"]?.array?.compactMap(\.string),
            sendsIssuerInAuthorizationResponse: document["authorization_response_iss_parameter_supported"]?.bool
                == true,
            pushedAuthorization: try endpoint("pushed_authorization_request_endpoint", required: false),
            requiresPushedAuthorization: document["require_pushed_authorization_requests"]?.bool == true,
            authSigningAlgorithms: document["token_endpoint_auth_signing_alg_values_supported"]?.array?.compactMap(
                \.string),
            dpopAlgorithms: document["dpop_signing_alg_values_supported"]?.array?.compactMap(\.string),
            codeChallengeMethods: document["code_challenge_methods_supported"]?.array?.compactMap(\.string)
        )
        takesRequestObjects = document["request_parameter_supported"]?.bool
        requestObjectAlgorithms = document["request_object_signing_alg_values_supported"]?.array?.compactMap(\.string)
        frontchannelLogoutSupported = document["frontchannel_logout_supported"]?.bool == true
    }

    /// Fetches and reads the discovery document of `issuer`, within `timeoutSeconds`; a problem
    /// names `setting`, where the issuer came from.
    public static func discover(
        issuer: String, http: any HTTPClient, timeoutSeconds: Double, setting: String = "AUTH0_DOMAIN"
    ) throws(DiscoveryProblem) -> TenantEndpoints {
        do {
            return try discover(issuer: issuer, http: http, timeoutSeconds: timeoutSeconds)
        } catch {
            throw error.naming(setting)
        }
    }

    private static func discover(issuer: String, http: any HTTPClient, timeoutSeconds: Double) throws(DiscoveryProblem)
        -> TenantEndpoints
    {
        let url = discoveryURL(issuer: issuer)
        let answer: HTTPClientResponse
        do {
            answer = try http.send(HTTPClientRequest(method: "GET", url: url, timeoutSeconds: timeoutSeconds))
        } catch {
            throw DiscoveryProblem("\(url) could not be reached (\(error))", transient: true)
        }
        guard answer.status == 200 else {
            throw DiscoveryProblem(
                "\(url) answered \(answer.status), not a discovery document", transient: answer.status >= 500)
        }
        guard let document = JSONValue.parse(answer.body) else {
            throw DiscoveryProblem("\(url) answered something that is not JSON")
        }
        return try TenantEndpoints(discovery: document, expectedIssuer: issuer)
    }
}
