import Foundation
import Web

/// The shape the Management API requires of a request body, checked as Auth0 checks it (JSON
/// Schema): no property it does not name, each of its type, each required one present. The first
/// mismatch is the answer's whole message, worded as Auth0 words it.
indirect enum PayloadShape: Sendable {
    case string, boolean, integer, number, anything
    /// A string that is an absolute https URL (Auth0's `absolute-https-uri-or-empty`), or empty.
    case httpsURL
    /// One of these strings.
    case oneOf([String])
    case array(PayloadShape)
    case object([String: PayloadShape], required: [String] = [])
    /// The shape, or null.
    case nullable(PayloadShape)

    static let strings = PayloadShape.array(.string)

    /// Auth0's message for the first way `value` does not fit (`Payload validation error: …`), or nil.
    func mismatch(_ value: JSONValue, at path: String = "") -> String? {
        let on = path.isEmpty ? "" : " on property \(path)"
        func wrong(_ expected: String) -> String {
            "'Expected type \(expected) but found type \(Self.typeName(value))'\(on)"
        }
        switch self {
        case .anything: return nil
        case .nullable(let shape): return value == .null ? nil : shape.mismatch(value, at: path)
        case .string: return value.string == nil ? wrong("string") : nil
        case .boolean: return value.bool == nil ? wrong("boolean") : nil
        case .number: return value.number == nil ? wrong("number") : nil
        case .integer:
            guard let number = value.number else { return wrong("integer") }
            return number == number.rounded() ? nil : wrong("integer")
        case .httpsURL:
            guard let text = value.string else { return wrong("string") }
            let url = URLComponents(string: text)
            guard text.isEmpty || (url?.scheme == "https" && url?.host?.isEmpty == false) else {
                return "'Object didn't pass validation for format absolute-https-uri-or-empty: \(text)'\(on)"
            }
            return nil
        case .oneOf(let choices):
            guard let text = value.string else { return wrong("string") }
            return choices.contains(text) ? nil : "'No enum match for: \"\(text)\"'\(on)"
        case .array(let element):
            guard let items = value.array else { return wrong("array") }
            for (index, item) in items.enumerated() {
                if let problem = element.mismatch(item, at: path.isEmpty ? "[\(index)]" : "\(path)[\(index)]") {
                    return problem
                }
            }
            return nil
        case .object(let properties, let required):
            guard let fields = value.object else { return wrong("object") }
            if let extra = fields.keys.sorted().first(where: { properties[$0] == nil }) {
                return "'Additional properties not allowed: \(extra)'\(on)"
            }
            if let missing = required.first(where: { fields[$0] == nil }) {
                return "'Missing required property: \(missing)'\(on)"
            }
            for key in fields.keys.sorted() {
                if let problem = properties[key]?.mismatch(fields[key]!, at: path.isEmpty ? key : "\(path).\(key)") {
                    return problem
                }
            }
            return nil
        }
    }

    /// The JSON type's name as Auth0's messages give it.
    static func typeName(_ value: JSONValue?) -> String {
        switch value {
        case nil, .null?: "null"
        case .bool?: "boolean"
        case .number(let number)?: number == number.rounded() ? "integer" : "number"
        case .string?: "string"
        case .array?: "array"
        case .object?: "object"
        }
    }
}
