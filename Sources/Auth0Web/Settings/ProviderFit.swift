/// The second stage of checking the settings: what needs the provider's discovery document
/// (the first, `RelyingPartySettings(reading:)`, judges the settings alone). Start-up and
/// `check-config` both run it right after discovery; one line per problem, naming the setting.
public enum ProviderFit {
    /// Every problem of `settings` on the provider whose endpoints were discovered.
    public static func problems(_ settings: RelyingPartySettings, _ endpoints: TenantEndpoints) -> [String] {
        var problems = ClientAuthentication.problems(settings: settings, endpoints: endpoints)
        problems += PushedAuthorization.problems(settings.binding.pushedAuthorization, endpoints)
        problems += DPoP.problems(settings.binding.dpop, key: settings.binding.dpopKey, endpoints)
        if let profile = settings.binding.securityProfile { problems += profile.problems(endpoints) }
        problems += RequestObject.problems(settings, endpoints)
        problems += logoutProblems(settings.provider, endpoints)
        problems += unlisted(
            "ID_TOKEN_SIGNING_ALG", settings.provider.idTokenSigningAlgorithm.rawValue, endpoints.idTokenAlgorithms,
            "the algorithms the provider signs ID tokens with", fix: ": set the one the application is registered for")
        return problems
    }

    /// A line when the provider lists `list` and `value` (what `setting` chose) is not in it.
    static func unlisted(_ setting: String, _ value: String, _ list: [String]?, _ what: String, fix: String = "")
        -> [String]
    {
        guard let list, !list.contains(value) else { return [] }
        return ["\(setting): \(value) is not among \(what) (\(list.joined(separator: ", ")))\(fix)"]
    }

    /// `oidc` logout needs an `end_session_endpoint`; a generic provider's default without one
    /// logs out here only (Google publishes none).
    private static func logoutProblems(_ provider: ProviderSettings, _ endpoints: TenantEndpoints) -> [String] {
        guard provider.logoutMode == .oidc, endpoints.endSession == nil,
            !provider.dialect.logsOutHereWithoutEndSession || !provider.logoutModeIsDefault
        else { return [] }
        return [
            "AUTH0_LOGOUT: oidc needs the tenant's end_session_endpoint, which its discovery document does not name"
        ]
    }
}
