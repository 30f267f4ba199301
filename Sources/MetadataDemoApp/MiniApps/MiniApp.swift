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
    /// Its API, which it calls with the person's access token; nil when it has none.
    public let api: MiniAppAPI?
    /// The authentication it needs (a recent login, a second factor); nil: any login.
    public let authentication: StepUp?
    /// Whether `authentication` asks for a second factor, worked out once (the logged-in page
    /// says so beside the app).
    public let asksSecondFactor: Bool
    /// Whether a rule only the app's API token settles is among `rules`.
    let hasTokenRules: Bool

    /// A mini app with these values.
    public init(
        name: String, titles: [Language: String], path: String, assertionAudience: String, rules: [EntryRule],
        api: MiniAppAPI? = nil, authentication: StepUp? = nil
    ) {
        self.api = api
        self.authentication = authentication
        self.name = name
        self.titles = titles
        self.path = path
        self.assertionAudience = assertionAudience
        self.rules = rules
        asksSecondFactor = authentication?.asksMultiFactor ?? false
        hasTokenRules = rules.contains(where: \.needsToken)
    }

    /// True when `session`'s login meets the authentication this app needs at `now`.
    public func isAuthenticatedEnough(_ session: Session, now: Int64) -> Bool {
        authentication?.isMet(authTime: session.authTime, acr: session.acr, amr: session.amr, now: now) ?? true
    }

    /// The first rule `session`'s person does not meet, holding `token`; without a token, the
    /// rules it alone settles are left for later. Nil when they may enter (so far).
    public func firstUnmetRule(for session: Session, token: APIToken? = nil) -> EntryRule? {
        rules.first { (token != nil || !$0.needsToken) && !$0.holds(for: session, token: token) }
    }
}

/// A mini app's API: the audience its access tokens must name and the scopes they must carry.
public struct MiniAppAPI: Sendable, Equatable {
    /// The API's identifier at the provider (`aud`).
    public let audience: String
    /// The scopes asked for and required.
    public let scopes: [String]

    /// An API with these values.
    public init(audience: String, scopes: [String]) {
        self.audience = audience
        self.scopes = scopes
    }
}
