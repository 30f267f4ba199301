import Web

/// How the application proves itself at the token and revocation endpoints (OpenID Connect Core
/// §9): `client_secret_basic` (the id and secret, each form-encoded, in `Authorization: Basic`) or
/// `client_secret_post` (both in the body).
public enum ClientAuthentication: String, Sendable {
    case basic = "client_secret_basic"
    case post = "client_secret_post"

    /// `CLIENT_AUTH_METHOD` when set; else, with Auth0, `client_secret_post` (Auth0's
    /// default for a regular web application, as this product always sent); else the provider's
    /// choice: `client_secret_basic` when its `token_endpoint_auth_methods_supported` lists it or
    /// is absent (the registration default every provider must support), else `client_secret_post`.
    public static func chosen(settings: Auth0Settings, endpoints: TenantEndpoints) -> ClientAuthentication {
        if let set = settings.clientAuthentication { return set }
        if settings.isAuth0 { return .post }
        guard let supported = endpoints.authMethods else { return .basic }
        return supported.contains(basic.rawValue) || !supported.contains(post.rawValue) ? .basic : .post
    }

    /// A `CLIENT_AUTH_METHOD` the provider says it does not support, as a start-up problem.
    public static func problems(settings: Auth0Settings, endpoints: TenantEndpoints) -> [String] {
        guard let set = settings.clientAuthentication, let supported = endpoints.authMethods,
            !supported.contains(set.rawValue)
        else { return [] }
        return [
            "CLIENT_AUTH_METHOD: \(set.rawValue) is not among the provider's token_endpoint_auth_methods_supported "
                + "(\(supported.joined(separator: ", ")))"
        ]
    }

    /// `form` and `headers` of a request to the token or revocation endpoint, with the client's
    /// credentials added the chosen way.
    func authenticate(_ form: [(String, String)], clientID: String, secret: String) -> (
        form: [(String, String)], headers: [(name: String, value: String)]
    ) {
        switch self {
        case .post:
            return ([("client_id", clientID), ("client_secret", secret)] + form, [])
        case .basic:
            // RFC 6749 §2.3.1: each is form-encoded before the two are joined and base64-encoded.
            let pair = PercentEncoding.encode(clientID) + ":" + PercentEncoding.encode(secret)
            return (form, [("Authorization", "Basic " + Base64URL.encodeStandard(Array(pair.utf8)))])
        }
    }
}
