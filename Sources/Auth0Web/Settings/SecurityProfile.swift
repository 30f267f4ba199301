/// `SECURITY_PROFILE`: one setting for a whole profile. Start-up refuses, one line per problem,
/// settings or a provider that cannot do all of it.
///
/// `fapi2` is the FAPI 2.0 Security Profile: pushed authorization requests (required), PKCE with
/// S256 (always sent), `private_key_jwt` (no shared secret), the authorization response's `iss`
/// (RFC 9207, required), DPoP-bound tokens (required), and ID tokens signed PS256, ES256 or EdDSA.
///
/// `fapi1-advanced` is FAPI 1.0 Advanced as Auth0's compliance level `fapi1_adv_pkj_par` asks of
/// an application (Auth0's "Configure FAPI Compliance"): pushed authorization requests, PKCE with
/// S256, `private_key_jwt`, every authorization request a request object (JAR, RFC 9101) signed
/// PS256 with `nbf` and `exp` within 60 minutes, and the ID token's `s_hash` (required, checked).
/// Every signature PS256 (FAPI 1.0 Advanced §8.6: PS256 or ES256, and the keys here are RSA).
public enum SecurityProfile: String, Sendable {
    case fapi2
    case fapi1Advanced = "fapi1-advanced"

    /// The profile binds tokens with DPoP (FAPI 2.0). FAPI 1.0 Advanced's sender-constraining is
    /// Auth0's mTLS level's, not the Private Key JWT one this profile is.
    var bindsTokens: Bool { self == .fapi2 }
    /// The profile signs every authorization request into a request object (FAPI 1.0 Advanced).
    var signsRequests: Bool { self == .fapi1Advanced }
    /// Every ID token must carry `s_hash`, the response's `state` signed (FAPI 1.0 Advanced).
    public var requiresStateHash: Bool { self == .fapi1Advanced }

    /// The ID token algorithms FAPI 2.0 allows (§5.4.1).
    static let fapi2Algorithms: [SigningAlgorithm] = [.ps256, .es256, .edDSA]
    /// The ID token algorithms FAPI 1.0 Advanced allows (§8.6).
    static let fapi1Algorithms: [SigningAlgorithm] = [.ps256, .es256]

    /// What the settings say that a profile judges.
    struct Chosen {
        let authentication: ClientAuthentication?
        let idTokens: SigningAlgorithm?
        let assertionAlgorithm: SigningAlgorithm?
        let dpopMode: Requirement?
        let hasDPoPKey: Bool
        let push: Requirement?
        let requestObjects: Bool?
        let requestObjectAlgorithm: SigningAlgorithm?
    }

    /// The profile's demands of the settings themselves.
    func problems(_ chosen: Chosen) -> [String] {
        let name = "SECURITY_PROFILE: " + rawValue
        var problems: [String] = []
        if chosen.authentication != .privateKeyJWT {
            problems.append(
                "\(name) authenticates with private_key_jwt: give CLIENT_ASSERTION_KEY"
                    + (chosen.authentication.map { " and leave CLIENT_AUTH_METHOD (\($0.rawValue)) out" } ?? ""))
        }
        let algorithms = self == .fapi2 ? Self.fapi2Algorithms : Self.fapi1Algorithms
        if let idTokens = chosen.idTokens, !algorithms.contains(idTokens) {
            let names = algorithms.map(\.rawValue)
            problems.append(
                "\(name) takes ID tokens signed \(names.dropLast().joined(separator: ", ")) or \(names.last ?? ""), not "
                    + "\(idTokens.rawValue) (ID_TOKEN_SIGNING_ALG, as the application is registered)")
        }
        if bindsTokens {
            if chosen.dpopMode == .off { problems.append("\(name) binds tokens: DPOP cannot be off") }
            if !chosen.hasDPoPKey {
                problems.append("\(name) binds tokens: give DPOP_KEY (`metadata-demo new-dpop-key`)")
            }
        }
        if chosen.push == .off {
            problems.append("\(name) pushes authorization requests: PUSHED_AUTHORIZATION_REQUESTS cannot be off")
        }
        if signsRequests {
            if chosen.requestObjects == false {
                problems.append("\(name) signs every authorization request: REQUEST_OBJECTS cannot be off")
            }
            if let algorithm = chosen.requestObjectAlgorithm, algorithm != .ps256 {
                problems.append(
                    "\(name) signs request objects PS256: REQUEST_OBJECT_ALG cannot be \(algorithm.rawValue)")
            }
            if let algorithm = chosen.assertionAlgorithm, algorithm != .ps256 {
                problems.append(
                    "\(name) signs client assertions PS256: CLIENT_ASSERTION_ALG cannot be \(algorithm.rawValue) "
                        + "(register the key for PS256)")
            }
        }
        return problems
    }

    /// The profile's demands of the provider, from its discovery document.
    func problems(_ endpoints: TenantEndpoints) -> [String] {
        let name = "SECURITY_PROFILE: " + rawValue
        var problems: [String] = []
        if self == .fapi2, !endpoints.sendsIssuerInAuthorizationResponse {
            problems.append(
                "\(name) needs the provider to name itself in authorization responses (RFC 9207), "
                    + "and its discovery document does not set authorization_response_iss_parameter_supported")
        }
        if let methods = endpoints.codeChallengeMethods, !methods.contains("S256") {
            problems.append("\(name) needs PKCE with S256, which the provider does not list")
        }
        return problems
    }
}
