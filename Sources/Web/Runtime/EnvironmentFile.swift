import FoundationEssentials

/// A file of settings read the way systemd reads `EnvironmentFile=` (systemd.exec(5)), so that
/// `metadata-demo --env-file F` and `check-config --env-file F` see exactly what the service will:
/// - one `NAME=value` a line; empty lines, lines starting with `#` or `;`, and lines without `=`
///   are skipped; whitespace around the name and the value is dropped;
/// - an unquoted value keeps its inner whitespace and everything after it, `#` included, and a
///   backslash keeps the character after it (a backslash at the end of a line joins the next);
/// - a value in single quotes is taken as it is; in double quotes, `\"`, `\\`, `` \` `` and `\$`
///   stand for the character, and a backslash at the end of a line joins the next; either may span
///   lines.
///
/// Where systemd would quietly do something a person did not mean, this says so instead:
/// `AUTH0_LOGOUT=v2   # or oidc` is the value `v2   # or oidc` to systemd, so a `#` after
/// whitespace in an unquoted value is a problem; so is a name that is not one, `export NAME=`,
/// a quote left open, or a name given twice. No problem quotes a value or a line: any of them may
/// be a secret's, so each names the line's number, the setting and lengths.
public struct EnvironmentFile: Sendable {
    /// The settings (a later line for the same name wins, as in systemd).
    public private(set) var values: [String: String] = [:]
    /// One line per problem, each naming the file's line and, when it has one, the setting.
    public private(set) var problems: [String] = []
    /// The line each setting was (last) given on (not a line of a key pasted without quotes).
    public private(set) var lineNumbers: [String: Int] = [:]

    /// Parses the text of an environment file.
    public init(text: String) {
        // A CRLF file splits too ("\r\n" is one Character in Swift).
        let lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }.map(String.init)
        var index = 0
        var unquotedPEM: String?
        while index < lines.count {
            let number = index + 1
            // systemd drops spaces, tabs and carriage returns around a line's parts.
            let line = lines[index].trimmingSpaces()
            index += 1
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            // A PEM key pasted without quotes: each of its lines is read as systemd reads it (a
            // base64 line ending in `==` is NAME=value to it), but its problems are one line
            // naming the key, never its text or a name made of it.
            let pastedKey = unquotedPEM
            let problemsBefore = problems.count
            defer {
                if let key = pastedKey {
                    problems.removeSubrange(problemsBefore...)
                    problems.append(
                        "line \(number): a line of \(key)'s key, which systemd does not take as part of it: put "
                            + "the whole key in double quotes, or in a file named by \(key)_FILE")
                    if line.hasPrefix("-----END ") { unquotedPEM = nil }
                }
            }
            // No problem quotes the line: it may be a secret's.
            guard let equals = line.unicodeScalars.firstIndex(of: "=") else {
                problems.append("line \(number): not NAME=value (systemd skips it)")
                continue
            }
            let name = String(line.unicodeScalars[..<equals]).trimmingSpaces()
            guard Self.isName(name) else {
                let exported = String(name.dropFirst(7)).trimmingSpaces()
                let hint =
                    name.hasPrefix("export ") && Self.isName(exported)
                    ? " (systemd has no export: write \(exported)=…)" : ""
                problems.append("line \(number): the text before \"=\" is not a setting name\(hint)")
                continue
            }
            // A quote left open or a backslash at the end takes in the lines that follow. The
            // value is taken from the line as written: inside quotes, spaces before a line break
            // are part of the value (systemd keeps them); only the ends of the whole are trimmed.
            let raw = lines[index - 1]
            var rest = String(
                raw.unicodeScalars[raw.unicodeScalars.index(after: raw.unicodeScalars.firstIndex(of: "=")!)...])
            var outcome = Self.value(of: rest.trimmingSpaces())
            while case .open = outcome, index < lines.count {
                rest += "\n" + lines[index]
                index += 1
                outcome = Self.value(of: rest.trimmingSpaces())
            }
            switch outcome {
            case .value(let text, _)
            where pastedKey == nil && text.hasPrefix("-----BEGIN ") && !text.contains("-----END "):
                unquotedPEM = name
                lineNumbers[name] = number
                problems.append(
                    "line \(number): \(name): a key of several lines without quotes: systemd takes its first line "
                        + "alone; put the whole key in double quotes, or in a file named by \(name)_FILE")
                values[name] = text
            case .value(let text, let comment):
                if let comment {
                    problems.append(
                        "line \(number): \(name): the value ends with a comment after its first \(comment) "
                            + "characters, which systemd keeps as part of it (\(text.count) characters in all): put "
                            + "the comment on a line of its own")
                }
                if values[name] != nil { problems.append("line \(number): \(name) is set twice; the last one wins") }
                values[name] = text
                if pastedKey == nil { lineNumbers[name] = number }  // a key's line names no setting
            case .open:
                problems.append(
                    "line \(number): \(name): a quote or a continued line is still open at the end of the file")
            case .invalid(let problem):
                problems.append("line \(number): \(name): \(problem)")
            }
        }
    }

    /// Reads and parses a file; the failure names the file.
    public static func read(path: String) -> Result<EnvironmentFile, ReadFailure> {
        guard let bytes = FileManager.default.contents(atPath: path) else { return .failure(ReadFailure(path: path)) }
        return .success(EnvironmentFile(text: String(decoding: bytes, as: UTF8.self)))
    }

    /// A file that could not be read.
    public struct ReadFailure: Error, CustomStringConvertible {
        /// The file's path.
        public let path: String
        /// What went wrong, naming the file.
        public var description: String { "\(path) cannot be read" }
    }

    private enum Outcome {
        /// The value, and where what looks like a comment starts in it (characters before its blank), if any.
        case value(String, comment: Int?)
        /// A quote or a backslash continues on the next line.
        case open
        case invalid(String)
    }

    /// True when `value` holds what reads as a comment after it (`v2   # or oidc`): systemd keeps
    /// it as part of the value. The worker names it in the line for a setting it refuses.
    public static func holdsTrailingComment(_ value: String) -> Bool {
        zip(value.dropFirst(), value).contains { $0 == "#" && isBlank($1) }
    }

    private static func isBlank(_ character: Character) -> Bool { character == " " || character == "\t" }

    /// A shell variable name: a letter or `_`, then letters, digits and `_`.
    private static func isName(_ name: String) -> Bool {
        func isLetter(_ byte: UInt8) -> Bool { byte == UInt8(ascii: "_") || (0x61...0x7A).contains(byte | 0x20) }
        guard let first = name.utf8.first, isLetter(first) else { return false }
        return name.utf8.allSatisfy { isLetter($0) || (0x30...0x39).contains($0) }
    }

    /// The value systemd makes of what follows `=` (trimmed). Read by Unicode scalar, as systemd
    /// reads bytes: by `Character`, a quote after a prepending mark (U+070F, say) is one grapheme
    /// with it, so the closing quote was not seen and the following lines were taken in (found by
    /// the env-file fuzz target).
    private static func value(of text: String) -> Outcome {
        let scalars = Array(text.unicodeScalars)
        var result = String.UnicodeScalarView()
        var comment: Int?
        var position = 0
        if let quote = scalars.first, quote == "'" || quote == "\"" {
            position = 1
            while position < scalars.count, scalars[position] != quote {
                if quote == "\"", scalars[position] == "\\" {
                    guard position + 1 < scalars.count else { return .open }
                    let next = scalars[position + 1]
                    if next == "\n" {
                        position += 2  // a continued line: the newline is dropped
                        continue
                    }
                    if !"\"\\`$".unicodeScalars.contains(next) { result.append("\\") }
                    result.append(next)
                    position += 2
                    continue
                }
                result.append(scalars[position])
                position += 1
            }
            guard position < scalars.count else { return .open }
            // Only whitespace may follow the closing quote (systemd drops it).
            guard scalars[(position + 1)...].allSatisfy(\.properties.isWhitespace) else {
                return .invalid("text after the closing quote")
            }
            return .value(String(result), comment: nil)
        }
        while position < scalars.count {
            let scalar = scalars[position]
            if scalar == "\\" {
                guard position + 1 < scalars.count else { return .open }
                if scalars[position + 1] != "\n" { result.append(scalars[position + 1]) }
                position += 2
                continue
            }
            if scalar == "#", comment == nil, position > 0,
                scalars[position - 1] == " " || scalars[position - 1] == "\t"
            {
                comment = String(String.UnicodeScalarView(result)).trimmingSpaces().count
            }
            result.append(scalar)
            position += 1
        }
        return .value(String(result), comment: comment)
    }
}
