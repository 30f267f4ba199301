import FoundationEssentials

/// Any JSON value, keeping booleans apart from numbers (Foundation's `NSNumber` on Linux would
/// read `1` as `true`; metadata of the wrong type must not switch features on).
public enum JSONValue: Sendable, Equatable, Codable, ExpressibleByStringLiteral {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// A string from a literal.
    public init(stringLiteral value: String) { self = .string(value) }

    /// Decodes any JSON value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// Encodes the value as JSON.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value):
            if value == value.rounded(), abs(value) < 1e15 {
                try container.encode(Int64(value))
            } else {
                try container.encode(value)
            }
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// Parses JSON bytes; nil when they are not JSON or nest deeper than 64 levels (see `decode`).
    public static func parse(_ bytes: [UInt8]) -> JSONValue? { try? decode(bytes) }

    /// Parses JSON bytes. Nesting is measured first and refused past `maxDepth` levels, before
    /// the (recursive) decoder sees it: deep nesting must be an error, never a stack overflow.
    public static func decode(_ bytes: [UInt8]) throws(JSONError) -> JSONValue {
        guard !JSONDepth.exceedsLimit(bytes) else { throw .tooDeep }
        do {
            return try JSONDecoder().decode(JSONValue.self, from: Data(bytes))
        } catch {
            throw .notJSON
        }
    }

    /// The deepest nesting of arrays and objects `decode` accepts.
    public static var maxDepth: Int { JSONDepth.limit }

    /// The value as compact JSON bytes, keys sorted (stable for files and tests).
    public func serialized() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array((try? encoder.encode(self)) ?? Data("null".utf8))
    }

    /// A member of an object.
    public subscript(_ key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    /// The text, when this is a string.
    public var string: String? { if case .string(let value) = self { value } else { nil } }
    /// The flag, when this is a boolean (never a number or a string).
    public var bool: Bool? { if case .bool(let value) = self { value } else { nil } }
    /// The number, when this is a number.
    public var number: Double? { if case .number(let value) = self { value } else { nil } }
    /// The members, when this is an object.
    public var object: [String: JSONValue]? { if case .object(let value) = self { value } else { nil } }
    /// The items, when this is an array.
    public var array: [JSONValue]? { if case .array(let value) = self { value } else { nil } }
}
