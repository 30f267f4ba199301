import Web

/// How the application proves itself at the token, revocation and pushed-request endpoints
/// (OpenID Connect Core §9): `client_secret_basic` (the id and secret, each form-encoded, in
/// `Authorization: Basic`), `client_secret_post` (both in the body) or `private_key_jwt` (a JWT
/// signed with its private key in the body: no shared secret).
public enum ClientAuthentication: String, Sendable {
    case basic = "client_secret_basic"
    case post = "client_secret_post"
    case privateKeyJWT = "private_key_jwt"

    /// `CLIENT_AUTH_METHOD` when set; else, with Auth0, `client_secret_post` (Auth0's
    /// default for a regular web application, as this product always sent); else the provider's
    /// choice: `client_secret_basic` when its `token_endpoint_auth_methods_supported` lists it or
    /// is absent (the registration default every provider must support), else `client_secret_post`.
    public static func chosen(settings: RelyingPartySettings, endpoints: TenantEndpoints) -> ClientAuthentication {
        if let set = settings.client.authentication { return set }
        if let preferred = settings.provider.dialect.preferredClientAuthentication { return preferred }
        guard let supported = endpoints.authMethods else { return .basic }
        return supported.contains(basic.rawValue) || !supported.contains(post.rawValue) ? .basic : .post
    }

    /// A `CLIENT_AUTH_METHOD` the provider says it does not support, as a start-up problem.
    public static func problems(settings: RelyingPartySettings, endpoints: TenantEndpoints) -> [String] {
        var problems: [String] = []
        if let set = settings.client.authentication, let supported = endpoints.authMethods,
            !supported.contains(set.rawValue)
        {
            problems.append(
                "CLIENT_AUTH_METHOD: \(set.rawValue) is not among the provider's token_endpoint_auth_methods_supported "
                    + "(\(supported.joined(separator: ", ")))")
        }
        let algorithm = settings.client.assertionAlgorithm.rawValue
        if settings.client.authentication == .privateKeyJWT, let listed = endpoints.authSigningAlgorithms,
            !listed.contains(algorithm)
        {
            problems.append(
                "CLIENT_ASSERTION_ALG: \(algorithm) is not among the provider's "
                    + "token_endpoint_auth_signing_alg_values_supported (\(listed.joined(separator: ", ")))")
        }
        return problems
    }
}
