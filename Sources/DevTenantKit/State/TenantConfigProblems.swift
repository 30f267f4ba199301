import Web

/// Every problem in the dev tenant's settings, one line each.
public struct TenantConfigProblems: Error, CustomStringConvertible {
    /// One line per problem, naming the setting.
    public let lines: [String]
    /// The settings read before the problems were found, for `dev-tenant settings`.
    public var reads: [SettingRead] = []
    /// The lines, one per problem.
    public var description: String { lines.joined(separator: "\n") }
}

extension TenantConfig {
    /// Every setting the tenant reads, and the problems start-up would report (`dev-tenant settings`).
    public static func readSettings(environment: [String: String]) -> (reads: [SettingRead], problems: [String]) {
        do {
            return (try TenantConfig(environment: environment).reads, [])
        } catch let problems as TenantConfigProblems {
            return (problems.reads, problems.lines)
        } catch {
            return ([], ["\(error)"])
        }
    }
}
