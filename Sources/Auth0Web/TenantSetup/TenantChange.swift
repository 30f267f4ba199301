/// One object of the tenant as the plan finds it: to create, to change (each field's shortfall),
/// or as the site needs it; with the dashboard's path to it, for whoever sets it by hand.
public struct TenantChange: Sendable, Equatable {
    /// What is to be done.
    public enum Kind: String, Sendable { case create, change, unchanged }

    /// What is to be done.
    public let kind: Kind
    /// The object, as people name it (`application metadata-demo`, `API https://…`).
    public let object: String
    /// Each field it lacks (`callbacks lack https://…`, `refresh_token.rotation_type: non-rotating -> rotating`).
    public let details: [String]
    /// Where the dashboard sets it.
    public let dashboard: String

    /// A change of these values.
    public init(_ kind: Kind, _ object: String, details: [String] = [], dashboard: String) {
        self.kind = kind
        self.object = object
        self.details = details
        self.dashboard = dashboard
    }

    /// The plan's lines for it.
    public var lines: [String] {
        let head =
            (kind == .unchanged ? "ok" : kind.rawValue).padded(to: 8) + object
        return [head] + details.map { "          " + $0 }
    }

    /// check-config's lines for it: one per disagreement, each with where to set it.
    public var problems: [String] {
        let how = "\(dashboard); `metadata-demo auth0 apply` sets it"
        switch kind {
        case .unchanged: return []
        case .create: return ["AUTH0: \(object) is missing (\(how))"]
        case .change: return details.map { "AUTH0: \(object): \($0) (\(how))" }
        }
    }
}
