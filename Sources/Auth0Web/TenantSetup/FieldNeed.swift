public import Web

/// What one field of a Management API document must hold for this site. A need is met or not by
/// the document alone, and making it so changes only that field, adding to a list what it lacks
/// and keeping what else is there: a second run finds nothing to change, and nothing anyone else
/// put in the tenant is taken away.
public enum FieldNeed: Sendable, Equatable {
    /// The field at the path holds this value.
    case value([String], JSONValue)
    /// The list at the path holds each of these; objects are found by their `key` field and must
    /// hold (at least) the needed one's fields.
    case includes([String], [JSONValue], key: String? = nil)

    /// The field's path, dotted (`refresh_token.rotation_type`).
    public var field: String {
        switch self {
        case .value(let path, _), .includes(let path, _, _): path.joined(separator: ".")
        }
    }

    /// How `document` falls short, in words (`callbacks lack https://…`), or nil when it does not.
    public func shortfall(in document: JSONValue) -> String? {
        switch self {
        case .value(let path, let needed):
            // An absent field is null, as the Management API takes a null to clear one.
            let held = Self.value(at: path, in: document) ?? .null
            guard held != needed else { return nil }
            return "\(field): \(held == .null ? "(not set)" : Self.describe(held)) -> \(Self.describe(needed))"
        case .includes(let path, let needed, let key):
            let held = Self.value(at: path, in: document)?.array ?? []
            let missing = needed.filter { item in !held.contains { Self.covers($0, item, key: key) } }
            guard !missing.isEmpty else { return nil }
            return "\(field) lack " + missing.map(Self.describe).joined(separator: ", ")
        }
    }

    /// `document` with the need met.
    public func met(in document: [String: JSONValue]) -> [String: JSONValue] {
        switch self {
        case .value(let path, let needed):
            return Self.setting(needed, at: path[...], in: document)
        case .includes(let path, let needed, let key):
            var list = Self.value(at: path, in: .object(document))?.array ?? []
            for item in needed where !list.contains(where: { Self.covers($0, item, key: key) }) {
                if let key, let index = list.firstIndex(where: { $0[key] != nil && $0[key] == item[key] }) {
                    list[index] = Self.merged(list[index], item)
                } else {
                    list.append(item)
                }
            }
            return Self.setting(.array(list), at: path[...], in: document)
        }
    }

    static func value(at path: [String], in document: JSONValue) -> JSONValue? {
        path.reduce(Optional(document)) { $0?[$1] }
    }

    private static func setting(_ value: JSONValue, at path: ArraySlice<String>, in document: [String: JSONValue])
        -> [String: JSONValue]
    {
        guard let first = path.first else { return document }
        var document = document
        document[first] =
            path.count == 1 ? value : .object(setting(value, at: path.dropFirst(), in: document[first]?.object ?? [:]))
        return document
    }

    /// True when `held` holds `needed`: equal, or (found by `key`) an object with each needed field,
    /// lists holding each needed item.
    private static func covers(_ held: JSONValue, _ needed: JSONValue, key: String?) -> Bool {
        guard key != nil, let want = needed.object, let have = held.object else { return held == needed }
        return want.allSatisfy { field, value in
            if let items = value.array { return items.allSatisfy { (have[field]?.array ?? []).contains($0) } }
            return have[field] == value
        }
    }

    /// `held` with `needed`'s fields, lists joined.
    private static func merged(_ held: JSONValue, _ needed: JSONValue) -> JSONValue {
        var result = held.object ?? [:]
        for (field, value) in needed.object ?? [:] {
            if let items = value.array, let existing = result[field]?.array {
                result[field] = .array(existing + items.filter { !existing.contains($0) })
            } else {
                result[field] = value
            }
        }
        return .object(result)
    }

    /// A value as a plan line shows it.
    static func describe(_ value: JSONValue) -> String {
        switch value {
        case .string(let text): text
        case .null: "(not set)"
        case .object(let fields):
            fields["audience"]?.string.map { "a policy for \($0)" } ?? fields["value"]?.string
                ?? String(decoding: value.serialized(), as: UTF8.self)
        default: String(decoding: value.serialized(), as: UTF8.self)
        }
    }
}
