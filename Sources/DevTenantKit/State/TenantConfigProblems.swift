/// Every problem in the dev tenant's settings, one line each.
public struct TenantConfigProblems: Error, CustomStringConvertible {
    /// One line per problem, naming the setting.
    public let lines: [String]
    /// The lines, one per problem.
    public var description: String { lines.joined(separator: "\n") }
}
