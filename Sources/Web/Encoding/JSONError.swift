import FoundationEssentials

/// Why bytes could not be read as JSON.
public enum JSONError: Error, Equatable, CustomStringConvertible {
    /// Not JSON text.
    case notJSON
    /// Arrays and objects nested deeper than `JSONValue.maxDepth`.
    case tooDeep

    /// A short reason for a log or an error body.
    public var description: String {
        switch self {
        case .notJSON: "not JSON"
        case .tooDeep: "JSON nested deeper than \(JSONValue.maxDepth) levels"
        }
    }
}
