import FoundationEssentials

/// One language's words for the pages, by key: a flat JSON object of strings, read once at
/// start-up (`TEMPLATES_DIR/i18n/LANGUAGE.json`). Templates name them as `[[key]]`.
public struct Catalogue: Sendable {
    /// Where the strings came from, for messages about them.
    public let file: String
    private let strings: [String: String]

    /// Strings given directly (tests).
    public init(strings: [String: String], file: String = "catalogue") {
        self.strings = strings
        self.file = file
    }

    /// Reads `file`; anything but an object of strings is an error naming the file.
    public init(file: String) throws {
        guard let data = FileManager.default.contents(atPath: file) else {
            throw TemplateError(file: file, line: 0, message: "cannot be read")
        }
        guard let object = JSONValue.parse(Array(data))?.object else {
            throw TemplateError(file: file, line: 0, message: "is not a JSON object")
        }
        var strings: [String: String] = [:]
        for (key, value) in object {
            guard let text = value.string else {
                throw TemplateError(file: file, line: 0, message: "\"\(key)\" is not a string")
            }
            strings[key] = text
        }
        self.init(strings: strings, file: file)
    }

    /// The text of `key`, if the catalogue has it.
    public func text(_ key: String) -> String? { strings[key] }

    /// `text` with each `{name}` mark replaced by `values[name]`, in one pass: a value is never
    /// read for marks of its own (a device name holding `{system}` stays as it is). A mark
    /// without a value stays as written. Plain `Character` work: this runs on page views.
    public static func filling(_ text: String, with values: [String: String]) -> String {
        guard !values.isEmpty, text.contains("{") else { return text }
        var result = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            result += rest[..<open]
            let mark = rest[open...close]
            result += values[String(mark.dropFirst().dropLast())] ?? String(mark)
            rest = rest[rest.index(after: close)...]
        }
        return result + rest
    }

    /// Every key, sorted.
    public var keys: [String] { strings.keys.sorted() }

    /// `source` with every `[[key]]` replaced by its text, HTML-escaped (it may stand in an
    /// attribute); a key the catalogue lacks throws naming the template's file and line.
    func fill(_ source: String, file: String) throws -> String {
        guard source.contains("[[") else { return source }
        var result = ""
        var rest = Substring(source)
        while let open = rest.firstRange(of: "[[") {
            result += rest[..<open.lowerBound]
            guard let close = rest[open.upperBound...].firstRange(of: "]]") else {
                throw TemplateError(
                    file: file, line: Self.line(of: open.lowerBound, in: source), message: "[[ without ]]")
            }
            let key = String(rest[open.upperBound..<close.lowerBound])
            guard let text = strings[key] else {
                throw TemplateError(
                    file: file, line: Self.line(of: open.lowerBound, in: source),
                    message: "no string \"\(key)\" in \(self.file)")
            }
            result += HTMLEscaping.escape(text)
            rest = rest[close.upperBound...]
        }
        return result + rest
    }

    private static func line(of index: String.Index, in source: String) -> Int {
        source[..<index].reduce(1) { $1 == "\n" ? $0 + 1 : $0 }
    }
}
