public import Web

/// What `metadata-demo auth0 plan|apply` and check-config's tenant check read beyond the worker's
/// own settings: the application's name at the tenant (by which it is found until its id is
/// set) and the management application whose credentials read and change the tenant.
public struct TenantSetupSettings: Sendable {
    /// `AUTH0_APPLICATION_NAME`.
    public let applicationName: String
    /// `AUTH0_MANAGEMENT_CLIENT_ID` and `AUTH0_MANAGEMENT_CLIENT_SECRET`, when both are given.
    public let management: (clientID: String, secret: String)?

    /// Reads the group; a management client id without its secret (or the reverse) is a problem.
    public static func read(_ reader: inout SettingsReader) -> TenantSetupSettings {
        let name = reader.value(.auth0ApplicationName)
        let id = reader.text(.auth0ManagementClientID)
        let secret = reader.secret(.auth0ManagementClientSecret, optional: true)
        if id != nil, secret == nil {
            reader.problem(.auth0ManagementClientSecret, "missing, while AUTH0_MANAGEMENT_CLIENT_ID is set")
        } else if id == nil, secret != nil {
            reader.problem(.auth0ManagementClientID, "missing, while AUTH0_MANAGEMENT_CLIENT_SECRET is set")
        }
        if name.trimmingWhitespace().isEmpty || name.count > 128 {
            reader.problem(.auth0ApplicationName, "must be 1 to 128 characters")
        }
        return TenantSetupSettings(applicationName: name, management: id.flatMap { id in secret.map { (id, $0) } })
    }
}

extension Setting {
    /// The guide's step that sets the tenant up by command.
    static let tenantStep = "the deployment guide's step 3, The Auth0 tenant"
    static let auth0ManagementClientID = Setting(
        "AUTH0_MANAGEMENT_CLIENT_ID",
        "a machine-to-machine application that `metadata-demo auth0` and check-config read and set the tenant with",
        guideStep: tenantStep)
    static let auth0ManagementClientSecret = Setting(
        "AUTH0_MANAGEMENT_CLIENT_SECRET", "that management application's secret", secret: true,
        credential: "management-client-secret", guideStep: tenantStep)
}

extension TypedSetting {
    static var auth0ApplicationName: TypedSetting<String> {
        Setting(
            "AUTH0_APPLICATION_NAME",
            "the application's name at Auth0, by which `metadata-demo auth0` finds it until AUTH0_CLIENT_ID is set",
            guideStep: Setting.tenantStep
        ).text(default: "metadata-demo")
    }
}
