public import OpenSSLCrypto
import Web

/// How a login's request and tokens are protected beyond the code flow: pushed authorization
/// requests (RFC 9126), DPoP-bound tokens (RFC 9449), or a whole security profile that requires them.
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

    /// Reads the group; `client` and `idTokens` are the other groups' values (nil when they were
    /// wrong), which a security profile judges too. Nil when any of it is wrong.
    public static func read(
        _ reader: inout SettingsReader, authentication: ClientAuthentication?, idTokens: SigningAlgorithm?
    ) -> BindingSettings? {
        let start = reader.problems.count
        let profileText = reader.text(.securityProfile)
        let profile = profileText.flatMap(SecurityProfile.init(rawValue:))
        if profileText != nil, profile == nil { reader.problem(.securityProfile, "must be fapi2, or left out") }
        let dpop = requirement(.dpop, &reader, profile: profile)
        let key = RelyingPartySettings.dpopKey(reader.secret(.dpopKey, optional: true), &reader)
        let push = requirement(.pushedAuthorizationRequests, &reader, profile: profile)
        if profile == .fapi2 {
            reader.problems(
                SecurityProfile.problems(
                    authentication: authentication, idTokens: idTokens, dpopMode: dpop, hasDPoPKey: key != nil,
                    push: push))
        }
        guard reader.problems.count == start, let dpop, let push else { return nil }
        return BindingSettings(securityProfile: profile, dpop: dpop, dpopKey: key, pushedAuthorization: push)
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
    static let securityProfile = Setting("SECURITY_PROFILE", "fapi2: the FAPI 2.0 Security Profile in one setting")
    static let dpop = Setting("DPOP", "auto, required or off: tokens bound to DPOP_KEY (RFC 9449)")
    static let dpopKey = Setting(
        "DPOP_KEY", "the EC P-256 key tokens are bound to, the same on every worker", secret: true,
        credential: "dpop-key")
    static let pushedAuthorizationRequests = Setting(
        "PUSHED_AUTHORIZATION_REQUESTS", "auto, required or off: logins push their request first (RFC 9126)")
}
