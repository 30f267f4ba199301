public import OpenSSLCrypto
public import Web

/// This application on this provider, resolved once after discovery from the settings and the
/// provider's document: how it proves itself (a credential that cannot lack its key), the key its
/// tokens are bound to (DPoP) or none, where its requests are pushed or nowhere, what signs them
/// into request objects or nothing, and what every callback is checked for. Each mechanism takes what it needs from here; none works it out again.
public struct ClientConfiguration: Sendable {
    /// The settings it was resolved from.
    public let settings: RelyingPartySettings
    /// The provider's discovered endpoints.
    public let endpoints: TenantEndpoints
    /// How the application proves itself at the token, revocation and pushed-request endpoints.
    public let credentials: ClientCredentials
    /// The key the login's tokens are bound to (RFC 9449), or nil when they are not: `DPOP` as
    /// set, a `DPOP_KEY` given, and (`auto`) the provider listing ES256.
    public let dpopKey: ECPrivateKey?
    /// Where logins push their authorization request first (RFC 9126), or nil when they do not.
    public let pushEndpoint: String?
    /// What signs each authorization request into a request object (JAR), or nil when requests
    /// travel as they are.
    public let requestObject: RequestObject?
    /// What every callback is checked for.
    public let callbackChecks: CallbackChecks

    /// The application of `settings` on the provider at `endpoints`, its assertions signed at the
    /// time `clock` says; fails when `private_key_jwt` is chosen without a key to sign with.
    public init(settings: RelyingPartySettings, endpoints: TenantEndpoints, clock: Clock = .system) throws(AuthError) {
        self.settings = settings
        self.endpoints = endpoints
        credentials = try ClientCredentials(settings: settings, endpoints: endpoints, clock: clock)
        let binding = settings.binding
        dpopKey = DPoP.isUsed(binding.dpop, key: binding.dpopKey, endpoints) ? binding.dpopKey : nil
        pushEndpoint = PushedAuthorization.endpoint(binding.pushedAuthorization, endpoints)
        requestObject = RequestObject(settings: settings, endpoints: endpoints, clock: clock)
        callbackChecks = CallbackChecks(
            issuer: endpoints.issuer, issuerAlwaysSent: endpoints.sendsIssuerInAuthorizationResponse,
            stateHashAlgorithm: settings.provider.idTokenSigningAlgorithm,
            stateHashRequired: binding.securityProfile?.requiresStateHash == true)
    }
}

/// What every callback is checked for on this provider, each said once with no lenient default:
/// the response's `iss` must be the provider's and, where the provider says it always sends one
/// (RFC 9207), present; the ID token's `s_hash` is taken with its signature's digest and, under
/// FAPI 1.0 Advanced, required.
public struct CallbackChecks: Sendable, Equatable {
    /// The provider's issuer.
    public let issuer: String
    /// True when every authorization response must name its issuer.
    public let issuerAlwaysSent: Bool
    /// How ID tokens are signed, whose digest `s_hash` is taken with.
    public let stateHashAlgorithm: SigningAlgorithm
    /// True when each ID token must carry `s_hash`.
    public let stateHashRequired: Bool

    /// These checks.
    public init(issuer: String, issuerAlwaysSent: Bool, stateHashAlgorithm: SigningAlgorithm, stateHashRequired: Bool) {
        self.issuer = issuer
        self.issuerAlwaysSent = issuerAlwaysSent
        self.stateHashAlgorithm = stateHashAlgorithm
        self.stateHashRequired = stateHashRequired
    }
}
