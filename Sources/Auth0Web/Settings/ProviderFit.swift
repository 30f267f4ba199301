/// The second stage of checking the settings: what needs the provider's discovery document
/// (the first, `RelyingPartySettings(reading:)`, judges the settings alone). Start-up and
/// `check-config` both run it right after discovery; one line per problem, naming the setting.
public enum ProviderFit {
    /// Every problem of `settings` on the provider whose endpoints were discovered.
    public static func problems(_ settings: RelyingPartySettings, _ endpoints: TenantEndpoints) -> [String] {
        var problems = ClientAuthentication.problems(settings: settings, endpoints: endpoints)
        problems += PushedAuthorization.problems(settings.binding.pushedAuthorization, endpoints)
        problems += DPoP.problems(settings.binding.dpop, key: settings.binding.dpopKey, endpoints)
        if settings.binding.securityProfile == .fapi2 { problems += SecurityProfile.problems(endpoints) }
        problems += logoutProblems(settings.provider, endpoints)
        let algorithm = settings.provider.idTokenSigningAlgorithm.rawValue
        if let listed = endpoints.idTokenAlgorithms, !listed.contains(algorithm) {
            problems.append(
                "ID_TOKEN_SIGNING_ALG: \(algorithm) is not among the algorithms the provider signs ID tokens with "
                    + "(\(listed.joined(separator: ", "))): set the one the application is registered for")
        }
        return problems
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
