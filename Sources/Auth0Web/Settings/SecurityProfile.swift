/// `SECURITY_PROFILE`: one setting for a whole profile. `fapi2` is the FAPI 2.0 Security Profile:
/// pushed authorization requests (required), PKCE with S256 (always sent), `private_key_jwt`
/// (no shared secret), the authorization response's `iss` (RFC 9207, required), DPoP-bound
/// tokens (required), and ID tokens signed PS256, ES256 or EdDSA. Start-up refuses, one line per
/// problem, settings or a provider that cannot do all of it.
public enum SecurityProfile: String, Sendable {
    case fapi2

    /// The ID token algorithms FAPI 2.0 allows (§5.4.1).
    static let fapi2Algorithms: [SigningAlgorithm] = [.ps256, .es256, .edDSA]

    /// The profile's demands of the settings themselves.
    static func problems(
        authentication: ClientAuthentication?, idTokens: SigningAlgorithm?, dpopMode: Requirement?, hasDPoPKey: Bool,
        push: Requirement?
    ) -> [String] {
        var problems: [String] = []
        if authentication != .privateKeyJWT {
            problems.append(
                "SECURITY_PROFILE: fapi2 authenticates with private_key_jwt: give CLIENT_ASSERTION_KEY"
                    + (authentication.map { " and leave CLIENT_AUTH_METHOD (\($0.rawValue)) out" } ?? ""))
        }
        if let idTokens, !fapi2Algorithms.contains(idTokens) {
            problems.append(
                "SECURITY_PROFILE: fapi2 takes ID tokens signed PS256, ES256 or EdDSA, not \(idTokens.rawValue) "
                    + "(ID_TOKEN_SIGNING_ALG, as the application is registered)")
        }
        if dpopMode == .off { problems.append("SECURITY_PROFILE: fapi2 binds tokens: DPOP cannot be off") }
        if !hasDPoPKey {
            problems.append("SECURITY_PROFILE: fapi2 binds tokens: give DPOP_KEY (`metadata-demo new-dpop-key`)")
        }
        if push == .off {
            problems.append(
                "SECURITY_PROFILE: fapi2 pushes authorization requests: PUSHED_AUTHORIZATION_REQUESTS cannot be off")
        }
        return problems
    }

    /// The profile's demands of the provider, from its discovery document.
    static func problems(_ endpoints: TenantEndpoints) -> [String] {
        var problems: [String] = []
        if !endpoints.sendsIssuerInAuthorizationResponse {
            problems.append(
                "SECURITY_PROFILE: fapi2 needs the provider to name itself in authorization responses (RFC 9207), "
                    + "and its discovery document does not set authorization_response_iss_parameter_supported")
        }
        if let methods = endpoints.codeChallengeMethods, !methods.contains("S256") {
            problems.append("SECURITY_PROFILE: fapi2 needs PKCE with S256, which the provider does not list")
        }
        return problems
    }
}
