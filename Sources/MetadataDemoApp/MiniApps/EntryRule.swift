import Auth0Web

/// One condition a mini app sets on who may enter, judged from what the session already holds
/// (no outbound call), so every check can judge it.
public enum EntryRule: Sendable, Equatable {
    /// The person's email address is verified.
    case emailVerified
    /// The email address is verified and at one of these domains (lower case): an unverified
    /// address says nothing of where the person belongs.
    case emailDomains([String])
    /// `app_metadata` holds this key with the value `true` (as `display_announcement` turns the
    /// announcement on).
    case appMetadataFlag(String)
    /// The ID token's roles claim lists one of these roles.
    case anyRole([String])
    /// The app's access token carries every one of these permissions (Auth0's RBAC: the API's
    /// "Add Permissions in the Access Token"); judged once the token is at hand.
    case permissions([String])

    /// True for the rule only the app's access token can settle.
    var needsToken: Bool { if case .permissions = self { true } else { false } }

    /// The rule's name in the configuration file and in log lines.
    public var name: String {
        switch self {
        case .emailVerified: "email_verified"
        case .emailDomains: "email_domains"
        case .appMetadataFlag(let flag): "app_metadata_flag:" + flag
        case .anyRole: "roles"
        case .permissions: "permissions"
        }
    }

    /// The catalogue key of the refusal's words: what is missing, without the rule's values.
    var wordsKey: String {
        switch self {
        case .emailVerified: "mini_app.refused.email_verified"
        case .emailDomains: "mini_app.refused.email_domains"
        case .appMetadataFlag: "mini_app.refused.app_metadata_flag"
        case .anyRole: "mini_app.refused.roles"
        case .permissions: "mini_app.refused.permissions"
        }
    }

    /// Every words key a refusal may use.
    static let allWordsKeys = [
        "mini_app.refused.email_verified", "mini_app.refused.email_domains", "mini_app.refused.app_metadata_flag",
        "mini_app.refused.roles", "mini_app.refused.permissions", "mini_app.refused.api_unavailable",
    ]

    /// True when `session`'s person, holding `token` for the app's API, meets the rule.
    public func holds(for session: Session, token: APIToken? = nil) -> Bool {
        switch self {
        case .emailVerified:
            return session.profile.emailVerified == true
        case .emailDomains(let domains):
            guard session.profile.emailVerified == true, let at = session.profile.email.lastIndex(of: "@") else {
                return false
            }
            let domain = session.profile.email[session.profile.email.index(after: at)...].lowercased()
            return domains.contains(domain)
        case .appMetadataFlag(let flag):
            return session.metadata.flags.contains(flag)
        case .anyRole(let roles):
            return session.roles.contains(where: roles.contains)
        case .permissions(let needed):
            return needed.allSatisfy { token?.permissions.contains($0) == true }
        }
    }
}
