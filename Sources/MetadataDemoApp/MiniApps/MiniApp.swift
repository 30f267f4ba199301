import Auth0Web

/// A mini app: a sibling app behind the same nginx, under its own path, that the product lets
/// people into by its rules and tells, with an identity assertion for its own audience, who they are.
public struct MiniApp: Sendable, Equatable {
    /// Its name: `[a-z0-9-]`, the last part of its check's path (`/auth/check/NAME`).
    public let name: String
    /// Its name as people read it, in English and in Chinese.
    public let titles: [Language: String]
    /// The path nginx serves it under, starting and ending with `/`.
    public let path: String
    /// The `aud` of its identity assertions.
    public let assertionAudience: String
    /// Who may enter: every rule must hold.
    public let rules: [EntryRule]

    /// A mini app with these values.
    public init(
        name: String, titles: [Language: String], path: String, assertionAudience: String, rules: [EntryRule]
    ) {
        self.name = name
        self.titles = titles
        self.path = path
        self.assertionAudience = assertionAudience
        self.rules = rules
    }

    /// The first rule `session`'s person does not meet; nil when they may enter.
    public func firstUnmetRule(for session: Session) -> EntryRule? {
        rules.first { !$0.holds(for: session) }
    }
}
