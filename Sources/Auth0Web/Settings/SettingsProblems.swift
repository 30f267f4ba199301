import FoundationEssentials
import Web

/// Every problem found in the settings, one line each, naming the setting.
public struct SettingsProblems: Error, CustomStringConvertible {
    /// One line per problem, each starting with the setting's name.
    public let lines: [String]
    /// Problems to report together.
    public init(lines: [String]) { self.lines = lines }
    /// The lines, one per problem.
    public var description: String { lines.joined(separator: "\n") }
}
