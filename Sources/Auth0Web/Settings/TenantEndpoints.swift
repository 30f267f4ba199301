import Web

/// Where the tenant's endpoints are and what it supports, as its OpenID discovery document says:
/// the document itself, kept as published, its endpoints checked once when it is read and every
/// field read through an accessor (a new one is one line). Read once at start-up (and by
/// `check-config`, the same way), so the worker calls exactly what the tenant publishes: an Auth0
/// custom domain or a tenant on another region works unchanged.
public struct TenantEndpoints: Sendable, Equatable {
    /// The discovery document, as read.
    private let document: [String: JSONValue]
    /// `issuer`, exactly as the provider publishes it; ID tokens must name it.
    public let issuer: String
    /// `authorization_endpoint`: where Universal Login starts.
    public let authorization: String
    /// `token_endpoint`: code exchange and refresh-token renewal.
    public let token: String
    /// `jwks_uri`: the keys ID tokens are signed with.
    public let jwks: String

    /// `userinfo_endpoint`, when published.
    public var userinfo: String? { document["userinfo_endpoint"]?.string }
    /// `revocation_endpoint`, when published: logout revokes the refresh token there.
    public var revocation: String? { document["revocation_endpoint"]?.string }
    /// `end_session_endpoint` (`/oidc/logout`), published by tenants created since November 2023.
    public var endSession: String? { document["end_session_endpoint"]?.string }
    /// `pushed_authorization_request_endpoint` (RFC 9126), when published: where a login's
    /// request is pushed before the browser goes to `authorization` with its reference.
    public var pushedAuthorization: String? { document["pushed_authorization_request_endpoint"]?.string }
    /// `token_endpoint_auth_methods_supported`, when published.
    public var authMethods: [String]? { strings("token_endpoint_auth_methods_supported") }
    /// `code_challenge_methods_supported`, when published.
    public var codeChallengeMethods: [String]? { strings("code_challenge_methods_supported") }
    /// `dpop_signing_alg_values_supported` (RFC 9449), when published: the provider binds tokens.
    public var dpopAlgorithms: [String]? { strings("dpop_signing_alg_values_supported") }
    /// `token_endpoint_auth_signing_alg_values_supported`, when published: how `private_key_jwt`
    /// assertions may be signed.
    public var authSigningAlgorithms: [String]? { strings("token_endpoint_auth_signing_alg_values_supported") }
    /// `scopes_supported`, when published.
    public var scopes: [String]? { strings("scopes_supported") }
    /// `id_token_signing_alg_values_supported`, when published.
    public var idTokenAlgorithms: [String]? { strings("id_token_signing_alg_values_supported") }
    /// `request_object_signing_alg_values_supported`, when published.
    public var requestObjectAlgorithms: [String]? { strings("request_object_signing_alg_values_supported") }
    /// `authorization_response_iss_parameter_supported` (RFC 9207): the provider names itself in
    /// every authorization response (`iss` beside `code` or `error`), so one without is refused.
    public var sendsIssuerInAuthorizationResponse: Bool { flag("authorization_response_iss_parameter_supported") }
    /// `require_pushed_authorization_requests`: the provider refuses a request that was not pushed.
    public var requiresPushedAuthorization: Bool { flag("require_pushed_authorization_requests") }
    /// `frontchannel_logout_supported` (OpenID Connect Front-Channel Logout 1.0): the provider's
    /// logout page loads the relying parties' front-channel logout URIs (Auth0 publishes none).
    public var frontchannelLogoutSupported: Bool { flag("frontchannel_logout_supported") }
    /// `request_parameter_supported` (OpenID Connect Discovery), when published: whether the
    /// provider takes a request object (RFC 9101) in `request`.
    public var takesRequestObjects: Bool? { document["request_parameter_supported"]?.bool }

    /// Auth0's own logout, `/v2/logout`: not an OpenID endpoint, so discovery never names it.
    public var auth0Logout: String { RelyingPartySettings.withSlash(issuer) + "v2/logout" }

    private func strings(_ name: String) -> [String]? { document[name]?.array?.compactMap(\.string) }
    private func flag(_ name: String) -> Bool { document[name]?.bool == true }

    /// The fields the accessors read: two documents that agree on them are the same endpoints.
    private static let readNames =
        endpointNames + [
            "issuer", "token_endpoint_auth_methods_supported", "code_challenge_methods_supported",
            "dpop_signing_alg_values_supported", "token_endpoint_auth_signing_alg_values_supported",
            "scopes_supported", "id_token_signing_alg_values_supported", "request_object_signing_alg_values_supported",
            "authorization_response_iss_parameter_supported", "require_pushed_authorization_requests",
            "frontchannel_logout_supported", "request_parameter_supported",
        ]

    /// The same endpoints and support, whatever else either document says.
    public static func == (left: TenantEndpoints, right: TenantEndpoints) -> Bool {
        readNames.allSatisfy { left.document[$0] == right.document[$0] }
    }

    /// The endpoints a document may name, each checked when it is read.
    private static let endpointNames = [
        "authorization_endpoint", "token_endpoint", "jwks_uri", "userinfo_endpoint", "revocation_endpoint",
        "end_session_endpoint", "pushed_authorization_request_endpoint",
    ]

    /// Auth0's documented paths under `issuer` (what the dev tenant publishes too).
    public static func documented(issuer: String) -> TenantEndpoints {
        let document: [String: JSONValue] = [
            "issuer": .string(issuer), "authorization_endpoint": .string(issuer + "authorize"),
            "token_endpoint": .string(issuer + "oauth/token"), "jwks_uri": .string(issuer + ".well-known/jwks.json"),
            "userinfo_endpoint": .string(issuer + "userinfo"), "revocation_endpoint": .string(issuer + "oauth/revoke"),
            "end_session_endpoint": .string(issuer + "oidc/logout"),
            "token_endpoint_auth_methods_supported": .array([
                "client_secret_basic", "client_secret_post", "private_key_jwt",
            ]),
            "scopes_supported": .array([
                "openid", "profile", "offline_access", "name", "nickname", "picture", "email", "email_verified",
            ]),
            "id_token_signing_alg_values_supported": .array(["HS256", "RS256", "PS256"]),
            "code_challenge_methods_supported": .array(["S256", "plain"]),
        ]
        // The document above names what the checks take: it cannot fail them.
        guard let endpoints = try? TenantEndpoints(discovery: .object(document), expectedIssuer: issuer) else {
            preconditionFailure("Auth0's documented paths under \(issuer) are not endpoints")
        }
        return endpoints
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
        guard let fields = document.object else {
            throw DiscoveryProblem("the discovery document is not a JSON object")
        }
        guard let issuer = fields["issuer"]?.string, issuer == expectedIssuer else {
            throw DiscoveryProblem(
                "the tenant calls itself \(fields["issuer"]?.string ?? "nothing"), not \(expectedIssuer)")
        }
        let insecureAllowed = issuer.hasPrefix("http://")  // a loopback tenant, as the settings allow
        for name in Self.endpointNames {
            // An endpoint that is not a string is not published (its accessor reads nil).
            guard let text = fields[name]?.string else { continue }
            guard text.hasPrefix("https://") || (insecureAllowed && text.hasPrefix("http://")),
                text.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F })
            else { throw DiscoveryProblem("the discovery document's \(name) is not an https URL") }
        }
        func required(_ name: String) throws(DiscoveryProblem) -> String {
            guard let value = fields[name]?.string else {
                throw DiscoveryProblem("the discovery document has no \(name)")
            }
            return value
        }
        self.document = fields
        self.issuer = issuer
        authorization = try required("authorization_endpoint")
        token = try required("token_endpoint")
        jwks = try required("jwks_uri")
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
