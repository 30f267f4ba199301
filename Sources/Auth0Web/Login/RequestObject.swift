import OpenSSLCrypto
import Web

/// A login's authorization request as a request object (JAR, RFC 9101): its parameters as the
/// claims of a JWT the application signs with its key (`REQUEST_OBJECT_KEY`, else its client
/// key), so that none can be changed or added on the way and the provider knows whose it is.
/// Made as Auth0's "Authorization Code Flow with JWT-Secured Authorization Requests" describes it:
/// `alg` RS256, RS384 or PS256, `typ` `oauth-authz-req+jwt`, `iss` and `client_id` the
/// application, `aud` the tenant's issuer (`https://TENANT/`, with its slash), and `nbf`, `exp`
/// (five minutes on: within the 60 that its FAPI compliance level allows) and `jti`; any other
/// provider's `aud` is its issuer, exactly.
public struct RequestObject: Sendable {
    /// How long a request object stands: Auth0's FAPI levels take at most 60 minutes from `nbf`.
    public static let lifetimeSeconds: Int64 = 300

    private let signer: ClientSigner
    private let clientID: String
    private let audience: String
    private let clock: Clock

    /// Request objects of the application `settings` describes for the provider at `endpoints`;
    /// nil when its requests are not signed. A `kid` (the key's thumbprint) names the key for any
    /// provider but Auth0, which matches one against the ids it gave.
    public init?(settings: RelyingPartySettings, endpoints: TenantEndpoints, clock: Clock) {
        guard settings.binding.requestObjects, let key = settings.binding.requestObjectKeys.first else { return nil }
        signer = ClientSigner(
            key: key, algorithm: settings.binding.requestObjectAlgorithm, type: "oauth-authz-req+jwt",
            namesKey: settings.provider.dialect.namesTheAssertionsKey)
        clientID = settings.client.id
        audience = endpoints.issuer
        self.clock = clock
    }

    /// The request object carrying `parameters`; throws `AuthError` when it cannot be signed.
    public func sign(_ parameters: [(String, String)]) throws(AuthError) -> String {
        let now = Int64(clock.now())
        var claims: [String: JSONValue] = [:]
        for (name, value) in parameters {
            // OpenID Connect Core §6.1: max_age is a number in a request object.
            claims[name] = name == "max_age" ? Int(value).map { .number(Double($0)) } ?? .string(value) : .string(value)
        }
        claims["iss"] = .string(clientID)
        claims["aud"] = .string(audience)
        claims["client_id"] = .string(clientID)
        claims["iat"] = .number(Double(now))
        claims["nbf"] = .number(Double(now))
        claims["exp"] = .number(Double(now + Self.lifetimeSeconds))
        claims["jti"] = .string(Base64URL.encode(SecureRandom.bytes(16)))
        do {
            return try signer.sign(.object(claims))
        } catch {
            throw AuthError(.requestObjectFailed, "\(error)")
        }
    }

    /// What the provider's discovery document says against signing its requests (any provider but
    /// Auth0, which keeps JAR a setting of the application rather than of its document).
    static func problems(_ settings: RelyingPartySettings, _ endpoints: TenantEndpoints) -> [String] {
        guard settings.binding.requestObjects, settings.provider.dialect.advertisesRequestObjects else { return [] }
        var problems: [String] = []
        if endpoints.takesRequestObjects == false {
            problems.append(
                "REQUEST_OBJECTS: on, but the provider's discovery document says request_parameter_supported: false")
        }
        return problems
            + ProviderFit.unlisted(
                "REQUEST_OBJECT_ALG", settings.binding.requestObjectAlgorithm.rawValue,
                endpoints.requestObjectAlgorithms, "the provider's request_object_signing_alg_values_supported")
    }
}
