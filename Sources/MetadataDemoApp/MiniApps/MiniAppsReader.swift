import Auth0Web
import Web

/// Reads the mini-app file's JSON into apps, noting every problem (one line each, naming the app
/// and the key) rather than stopping at the first.
struct MiniAppsReader {
    let baseURL: String
    /// The provider is Auth0 (Multi-Resource Refresh Token), and the login's own audience.
    /// Whether the provider gives tokens for APIs other than the login's (Auth0's Multi-Resource Refresh Token).
    let issuesTokensForOtherAPIs: Bool
    let loginAudience: String?
    private(set) var problems: [String] = []
    private(set) var rolesClaim: String?
    /// Every name and path given so far, read well or not, so a repeat is said either way.
    private var names: Set<String> = []
    private var paths: [(name: String, path: String)] = []
    /// Every app's assertion audience so far, and the sibling app's: each names one app alone.
    private var audiences: [(owner: String, audience: String)] = []

    init(
        baseURL: String, dialect: ProviderDialect = .auth0, loginAudience: String? = nil, siblingAudience: String? = nil
    ) {
        self.baseURL = baseURL
        issuesTokensForOtherAPIs = dialect.issuesTokensForOtherAPIs
        self.loginAudience = loginAudience
        if let siblingAudience { audiences.append(("IDENTITY_ASSERTION_AUDIENCE (the sibling app)", siblingAudience)) }
    }

    /// The product's own first path segments (from its route table): a mini app under one would
    /// hide a page of the product.
    static let reservedSegments = Routes.ownSegments

    mutating func read(_ document: JSONValue) -> [MiniApp] {
        guard let top = document.object else {
            problems.append("the file must hold a JSON object with \"apps\"")
            return []
        }
        // Keys starting with "_" are notes for people and other programs (the example apps' own settings).
        for key in top.keys.sorted() where key != "apps" && key != "roles_claim" && !key.hasPrefix("_") {
            problems.append("\(key): unknown key (the file has apps and roles_claim)")
        }
        if let claim = top["roles_claim"] {
            if let text = claim.string, !text.trimmingWhitespace().isEmpty {
                rolesClaim = text
            } else {
                problems.append("roles_claim: must be the name of the ID token's claim that lists roles")
            }
        }
        guard let list = top["apps"]?.array, !list.isEmpty else {
            problems.append("apps: must be a list of at least one mini app")
            return []
        }
        var apps: [MiniApp] = []
        for (index, entry) in list.enumerated() {
            if let app = readApp(entry, index: index) { apps.append(app) }
        }
        return apps
    }

    private mutating func readApp(_ entry: JSONValue, index: Int) -> MiniApp? {
        guard let fields = entry.object else {
            problems.append("apps[\(index)]: must be an object")
            return nil
        }
        let nameText = fields["name"]?.string ?? ""
        let name = Self.isName(nameText) ? nameText : nil
        let label = name.map { "app \"\($0)\"" } ?? "apps[\(index)]"
        func problem(_ key: String, _ text: String) { problems.append("\(label): \(key): \(text)") }
        if name == nil {
            problem("name", "must be 1 to 32 of a-z, 0-9 and -, starting with a letter or digit")
        } else if !names.insert(nameText).inserted {
            problem("name", "another app has this name")
        }
        let known: Set<String> = ["name", "title", "path", "assertion_audience", "allow", "api", "authentication"]
        for key in fields.keys.sorted() where !known.contains(key) && !key.hasPrefix("_") {
            problem(key, "unknown key (an app has " + known.sorted().joined(separator: ", ") + ")")
        }
        var titles: [Language: String] = [:]
        for language in Language.allCases {
            if let text = fields["title"]?[language.rawValue]?.string, !text.trimmingWhitespace().isEmpty {
                titles[language] = text
            } else {
                problem("title.\(language.rawValue)", "missing; the app's name as people read it, in each language")
            }
        }
        let pathText = fields["path"]?.string ?? ""
        var path: String?
        if let why = Self.pathProblem(pathText) {
            problem("path", why)
        } else if let other = paths.first(where: { $0.path.hasPrefix(pathText) || pathText.hasPrefix($0.path) }) {
            problem("path", "\(pathText) overlaps app \"\(other.name)\"'s \(other.path)")
        } else {
            path = pathText
            paths.append((nameText, pathText))
        }
        var audience = path.map { baseURL + $0 }
        if let given = fields["assertion_audience"] {
            audience = given.string.flatMap { $0.hasPrefix("https://") || $0.hasPrefix("http://") ? $0 : nil }
            if audience == nil { problem("assertion_audience", "must be an http(s) URL naming the app") }
        }
        if let given = audience {
            if let other = audiences.first(where: { $0.audience == given }) {
                problem(
                    "assertion_audience",
                    "\(given) is \(other.owner)'s too: an assertion for one would open the other; give each its own")
                audience = nil
            } else {
                audiences.append(("app \"\(nameText)\"", given))
            }
        }
        let api = readAPI(fields["api"], problem)
        let authentication = readAuthentication(fields["authentication"], problem)
        var rules = readRules(fields["allow"], problem)
        if rules?.contains(where: \.needsToken) == true, fields["api"] == nil {
            problem("allow.permissions", "needs api: the permissions are those of the app's access token for its API")
            rules = nil
        }
        guard let name, let path, let audience, titles.count == Language.allCases.count, let rules,
            fields["api"] == nil || api != nil, fields["authentication"] == nil || authentication != nil
        else { return nil }
        return MiniApp(
            name: name, titles: titles, path: path, assertionAudience: audience, rules: rules, api: api,
            authentication: authentication)
    }

    /// The authentication an app needs (`{"max_age": seconds, "acr_values": "…"}`); nil after a
    /// problem or without one.
    private func readAuthentication(_ value: JSONValue?, _ problem: (String, String) -> Void) -> StepUp? {
        guard let value else { return nil }
        let fields = value.object ?? [:]
        let maxAge = fields["max_age"]?.number
        let acr = fields["acr_values"]?.string
        guard value.object != nil, Set(fields.keys).isSubset(of: ["max_age", "acr_values"]),
            maxAge != nil || acr != nil,
            fields["max_age"] == nil || maxAge.map({ $0 == $0.rounded() && $0 >= 0 && $0 <= 31_536_000 }) == true,
            fields["acr_values"] == nil || acr != nil,
            let stepUp = StepUp(maxAge: maxAge.map { String(Int64($0)) }, acrValues: acr)
        else {
            problem(
                "authentication",
                "must be {\"max_age\": whole seconds up to a year, \"acr_values\": \"\(StepUp.multiFactorPolicy)\"}, "
                    + "either or both")
            return nil
        }
        return stepUp
    }

    /// The app's API (`{"audience": …, "scope": "a b"}`); nil after a problem or without one.
    private func readAPI(_ value: JSONValue?, _ problem: (String, String) -> Void) -> MiniAppAPI? {
        guard let value else { return nil }
        guard let fields = value.object, let audience = fields["audience"]?.string, !audience.isEmpty,
            let scope = fields["scope"]?.string, !scope.trimmingWhitespace().isEmpty,
            Set(fields.keys).isSubset(of: ["audience", "scope"])
        else {
            problem(
                "api", "must be {\"audience\": the API's identifier, \"scope\": the scopes it needs, space-separated}")
            return nil
        }
        // Only Auth0 exchanges the refresh token for another API's token (Multi-Resource Refresh
        // Token); another provider's login token serves only its own audience.
        guard issuesTokensForOtherAPIs || audience == loginAudience else {
            problem(
                "api.audience",
                "\(audience) is not the login's own audience (AUTH0_AUDIENCE); only Auth0 gives tokens for another API "
                    + "(Multi-Resource Refresh Token), and token exchange (RFC 8693) is not supported yet")
            return nil
        }
        return MiniAppAPI(audience: audience, scopes: scope.split(separator: " ").map(String.init))
    }

    /// The rules of `allow`, in a fixed order; nil after a problem.
    private func readRules(_ allow: JSONValue?, _ problem: (String, String) -> Void) -> [EntryRule]? {
        guard let allow else { return [] }  // every logged-in person
        guard let fields = allow.object else {
            problem("allow", "must be an object of rules")
            return nil
        }
        var rules: [EntryRule] = []
        var fine = true
        let known = EntryRule.Kind.allCases.map(\.rawValue)
        for key in fields.keys.sorted() where !known.contains(key) {
            problem("allow.\(key)", "unknown rule (the rules are " + known.joined(separator: ", ") + ")")
            fine = false
        }
        if let value = fields["email_verified"] {
            if value.bool == true {
                rules.append(.emailVerified)
            } else {
                problem("allow.email_verified", "must be true (leave it out to let unverified addresses in)")
                fine = false
            }
        }
        if let value = fields["email_domains"] {
            let domains = value.array?.compactMap { $0.string.flatMap(Self.domain) } ?? []
            if !domains.isEmpty, domains.count == value.array?.count {
                rules.append(.emailDomains(domains))
            } else {
                problem("allow.email_domains", "must be a list of domain names, such as [\"example.com\"]")
                fine = false
            }
        }
        if let value = fields["app_metadata_flag"] {
            if let flag = value.string, !flag.isEmpty, !flag.contains("."), flag.utf8.count <= 100 {
                rules.append(.appMetadataFlag(flag))
            } else {
                problem("allow.app_metadata_flag", "must be the name of a key of app_metadata (no \".\")")
                fine = false
            }
        }
        if let value = fields["roles"] {
            switch (Self.names(value), rolesClaim) {
            case (let roles?, _?):
                rules.append(.anyRole(roles))
            case (nil, _):
                problem("allow.roles", "must be a list of role names, any one of which lets a person in")
                fine = false
            case (_?, nil):
                problem(
                    "allow.roles", "needs roles_claim at the top of the file: the ID token's claim that lists roles")
                fine = false
            }
        }
        if let value = fields["permissions"] {
            if let names = Self.names(value) {
                rules.append(.permissions(names))
            } else {
                problem("allow.permissions", "must be a list of permission names, every one of which is needed")
                fine = false
            }
        }
        return fine ? rules : nil
    }

    /// A non-empty list of non-empty strings, or nil.
    static func names(_ value: JSONValue) -> [String]? {
        guard let list = value.array, !list.isEmpty else { return nil }
        let names = list.compactMap { $0.string.flatMap { $0.isEmpty ? nil : $0 } }
        return names.count == list.count ? names : nil
    }

    static func isName(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard (1...32).contains(bytes.count), bytes[0] != UInt8(ascii: "-") else { return false }
        return bytes.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == UInt8(ascii: "-") }
    }

    /// Why `text` cannot be a mini app's path; nil when it can.
    static func pathProblem(_ text: String) -> String? {
        guard text.hasPrefix("/"), text.hasSuffix("/"), text.count > 1 else {
            return "must start and end with /, such as /announcements/"
        }
        let segments = text.split(separator: "/", omittingEmptySubsequences: false).dropFirst().dropLast()
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
        guard segments.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." && $0.allSatisfy(allowed.contains) })
        else { return "\(text) must be segments of letters, digits, -, ., _ and ~" }
        if let first = segments.first, reservedSegments.contains(String(first)) {
            return "\(text) is the product's own (/\(first)/…)"
        }
        return nil
    }

    /// A domain name in lower case, or nil.
    static func domain(_ text: String) -> String? {
        let lower = text.lowercased()
        let labels = lower.split(separator: ".", omittingEmptySubsequences: false)
        let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789-")
        guard labels.count >= 2, lower.count <= 253,
            labels.allSatisfy({ !$0.isEmpty && $0.count <= 63 && $0.allSatisfy(allowed.contains) })
        else { return nil }
        return lower
    }
}
