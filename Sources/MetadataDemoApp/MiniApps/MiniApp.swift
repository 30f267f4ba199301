import Auth0Web

/// A mini app: a sibling app behind the same nginx, under its own path, that the product lets
/// people into by its rules and tells, with an identity assertion for its own audience, who they are.
/// A class of constants: the logged-in page walks every app on each view, and a struct of a dozen
/// strings and lists was copied field by field for each.
public final class MiniApp: Sendable {
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
    /// Its title in each language, picked out once (`title(in:)`).
    private let englishTitle: String
    private let chineseTitle: String

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
        // Its name where the file gave no title.
        englishTitle = titles[.en] ?? name
        chineseTitle = titles[.zh] ?? name
    }

    /// Its title in `language`, else its name (picked out once: the dictionary hashed its key at
    /// every ask).
    public func title(in language: Language) -> String {
        switch language {
        case .en: englishTitle
        case .zh: chineseTitle
        }
    }

    /// Whether `session`'s person may enter at `now`, holding `token` for the app's API: the one
    /// answer the door (`/auth/check`), its refusal page and the logged-in page's list each ask.
    /// Without a token, the rules only a token settles are left for later.
    public func admission(for session: Session, token: APIToken? = nil, now: Int64) -> Admission {
        if let rule = rules.first(where: { (token != nil || !$0.needsToken) && !$0.holds(for: session, token: token) })
        {
            return .refused(rule)
        }
        if let authentication,
            !authentication.isMet(authTime: session.authTime, acr: session.acr, amr: session.amr, now: now)
        {
            return .needsAuthentication(authentication)
        }
        return .admitted
    }
}

/// What a mini app's rules and authentication say of a person.
public enum Admission: Sendable, Equatable {
    /// A rule keeps them out.
    case refused(EntryRule)
    /// They may enter after logging in again as the app needs (recently, or with a second factor).
    case needsAuthentication(StepUp)
    /// They may enter (so far as what was judged).
    case admitted

    /// The rule that keeps them out, if one does.
    public var refusingRule: EntryRule? {
        if case .refused(let rule) = self { return rule }
        return nil
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
