public import OpenSSLCrypto
import Web

/// How a login's request and tokens are protected beyond the code flow: pushed authorization
/// requests (RFC 9126), signed request objects (JAR, RFC 9101), DPoP-bound tokens (RFC 9449), or
/// a whole security profile that requires them.
public struct BindingSettings: Sendable {
    /// A whole profile in one setting (FAPI 2.0), or nil.
    public let securityProfile: SecurityProfile?
    /// Whether the product's tokens are bound to `dpopKey`.
    public let dpop: Requirement
    /// The EC P-256 private key every worker proves its tokens with (the same on every worker);
    /// nil when not given.
    public let dpopKey: ECPrivateKey?
    /// Whether logins push their request first.
    public let pushedAuthorization: Requirement
    /// Whether each authorization request travels as a request object signed with the client's
    /// key (JAR, RFC 9101).
    public let requestObjects: Bool
    /// How request objects are signed (PS256 unless told).
    public let requestObjectAlgorithm: SigningAlgorithm
    /// The keys request objects are signed with (`REQUEST_OBJECT_KEY`, the first signs), or, when
    /// not given, `CLIENT_ASSERTION_KEY`'s: a request object needs no `private_key_jwt`.
    public let requestObjectKeys: [RSAPrivateKey]

    /// Reads the group; `client` and `idTokens` are the other groups' values (nil when they were
    /// wrong), which a security profile judges too. Nil when any of it is wrong.
    public static func read(
        _ reader: inout SettingsReader, client: ClientSettings?, idTokens: SigningAlgorithm?
    ) -> BindingSettings? {
        let start = reader.problems.count
        let profileText = reader.text(.securityProfile)
        let profile = profileText.flatMap(SecurityProfile.init(rawValue:))
        if profileText != nil, profile == nil {
            reader.problem(.securityProfile, "must be fapi2 or fapi1-advanced, or left out")
        }
        let dpop = requirement(.dpop, &reader, profile: profile?.bindsTokens == true ? profile : nil)
        let key = RelyingPartySettings.dpopKey(reader.secret(.dpopKey, optional: true), &reader)
        let push = requirement(.pushedAuthorizationRequests, &reader, profile: profile)
        let ownKeys = RelyingPartySettings.clientAssertionKeys(
            reader.secret(.requestObjectKey, optional: true), setting: .requestObjectKey, &reader)
        let requestObjectKeys = ownKeys.isEmpty ? client?.assertionKeys ?? [] : ownKeys
        let (requestObjects, requestObjectAlgorithm) = readRequestObjects(
            &reader, profile: profile, hasKeys: client == nil ? nil : !requestObjectKeys.isEmpty)
        if let profile {
            reader.problems(
                profile.problems(
                    SecurityProfile.Chosen(
                        authentication: client?.authentication, idTokens: idTokens,
                        assertionAlgorithm: client?.assertionAlgorithm, dpopMode: dpop, hasDPoPKey: key != nil,
                        push: push, requestObjects: requestObjects, requestObjectAlgorithm: requestObjectAlgorithm)))
        }
        guard reader.problems.count == start, let dpop, let push, let requestObjects, let requestObjectAlgorithm
        else { return nil }
        return BindingSettings(
            securityProfile: profile, dpop: dpop, dpopKey: key, pushedAuthorization: push,
            requestObjects: requestObjects, requestObjectAlgorithm: requestObjectAlgorithm,
            requestObjectKeys: requestObjectKeys)
    }

    /// `REQUEST_OBJECTS` (`on` or `off`; on under `fapi1-advanced`) and `REQUEST_OBJECT_ALG`
    /// (PS256 unless told): request objects are signed with CLIENT_ASSERTION_KEY's first key.
    private static func readRequestObjects(_ reader: inout SettingsReader, profile: SecurityProfile?, hasKeys: Bool?)
        -> (Bool?, SigningAlgorithm?)
    {
        let on = reader.value(.requestObjects) ?? (profile?.signsRequests == true)
        reader.shows(.requestObjects, on ? "on" : "off")
        if on == true, hasKeys == false {
            reader.problem(
                .requestObjects,
                "on signs each login's request with a key: give REQUEST_OBJECT_KEY (or CLIENT_ASSERTION_KEY, "
                    + "whose first key then signs them; `metadata-demo new-client-key`), and register its public "
                    + "half for request objects at the provider")
        }
        let algorithm = RelyingPartySettings.rsaAlgorithm(
            .requestObjectAlg, note: " (Auth0 takes RS256, RS384 and PS256)", &reader)
        return (on, algorithm)
    }

    /// `auto`, `required` or `off`; a profile's parts are required unless set otherwise (which the
    /// profile then judges).
    private static func requirement(_ setting: Setting, _ reader: inout SettingsReader, profile: SecurityProfile?)
        -> Requirement?
    {
        let fallback: Requirement = profile == nil ? .auto : .required
        guard let text = reader.text(setting, defaultShown: fallback.rawValue) else { return fallback }
        if let named = Requirement(rawValue: text) { return named }
        reader.problem(setting, "must be auto, required or off")
        return nil
    }
}

extension Setting {
    static let securityProfile = Setting(
        "SECURITY_PROFILE", "fapi2 or fapi1-advanced: a whole security profile in one setting")
    static let requestObjectKey = Setting(
        "REQUEST_OBJECT_KEY", "RSA private keys request objects are signed with (else CLIENT_ASSERTION_KEY's)",
        secret: true, credential: "request-object-key")
    static let dpop = Setting("DPOP", "auto, required or off: tokens bound to DPOP_KEY (RFC 9449)")
    static let dpopKey = Setting(
        "DPOP_KEY", "the EC P-256 key tokens are bound to, the same on every worker", secret: true,
        credential: "dpop-key")
    static let pushedAuthorizationRequests = Setting(
        "PUSHED_AUTHORIZATION_REQUESTS", "auto, required or off: logins push their request first (RFC 9126)")
}

extension TypedSetting {
    static var requestObjects: TypedSetting<Bool?> {
        Setting("REQUEST_OBJECTS", "on or off: each authorization request a signed request object (JAR, RFC 9101)")
            .onOff(unsetMeans: "off (on under fapi1-advanced)")
    }
    static var requestObjectAlg: TypedSetting<String> {
        Setting("REQUEST_OBJECT_ALG", "how request objects are signed (PS256 unless told)")
            .text(default: SigningAlgorithm.ps256.rawValue)
    }
}
