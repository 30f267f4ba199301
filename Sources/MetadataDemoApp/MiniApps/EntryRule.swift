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

    /// The kinds of rule, by their key in the file's `allow`.
    public enum Kind: String, Sendable, CaseIterable {
        case emailVerified = "email_verified", emailDomains = "email_domains"
        case appMetadataFlag = "app_metadata_flag", roles, permissions
    }

    /// Which kind of rule it is.
    public var kind: Kind {
        switch self {
        case .emailVerified: .emailVerified
        case .emailDomains: .emailDomains
        case .appMetadataFlag: .appMetadataFlag
        case .anyRole: .roles
        case .permissions: .permissions
        }
    }

    /// True for the rule only the app's access token can settle.
    var needsToken: Bool { kind == .permissions }

    /// The rule's name in log lines: its kind, and for a flag, which.
    public var name: String {
        if case .appMetadataFlag(let flag) = self { return kind.rawValue + ":" + flag }
        return kind.rawValue
    }

    /// The catalogue key of the refusal's words: what is missing, without the rule's values.
    var wordsKey: String { Self.wordsKey(kind) }

    static func wordsKey(_ kind: Kind) -> String { "mini_app.refused." + kind.rawValue }

    /// Every words key a refusal may use.
    static var allWordsKeys: [String] {
        var keys = Kind.allCases.map(wordsKey)
        for refusal in CheckRefusal.allCases where !keys.contains(refusal.wordsKey) { keys.append(refusal.wordsKey) }
        return keys
    }

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
