import Web

/// What a session keeps beyond the profile for mini apps' entry rules, named by their
/// configuration so the cookie carries only that: which `app_metadata` flags to note (those the
/// rules name) and the ID token's claim that lists the person's roles.
public struct RuleFacts: Sendable, Equatable {
    /// `app_metadata` keys whose value `true` a rule asks for.
    public var appMetadataFlags: [String]
    /// The namespaced claim of the ID token holding the person's roles (an Auth0 Action adds it).
    public var rolesClaim: String?

    /// Facts with these names.
    public init(appMetadataFlags: [String] = [], rolesClaim: String? = nil) {
        self.appMetadataFlags = appMetadataFlags
        self.rolesClaim = rolesClaim
    }

    /// No rules: the session keeps nothing more.
    public static let none = RuleFacts()

    /// The roles `claims` list under `rolesClaim` (strings only; a single string counts as one).
    public func roles(in claims: JSONValue) -> [String] {
        guard let rolesClaim, let value = claims[rolesClaim] else { return [] }
        if let one = value.string { return [one] }
        return value.array?.compactMap(\.string) ?? []
    }
}
