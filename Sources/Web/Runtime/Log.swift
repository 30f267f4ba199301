#if canImport(Glibc)
    import Glibc
#endif

/// One-line logfmt records on standard error: `level=info msg="…" key=value`.
/// Callers pass only what is safe to print: never tokens, cookies or codes.
public struct Log: Sendable {
    /// How important a record is.
    public enum Level: Int, Sendable, Comparable {
        case debug, info, warning, error
        /// Less important first.
        public static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }
        var name: String {
            switch self {
            case .debug: "debug"
            case .info: "info"
            case .warning: "warning"
            case .error: "error"
            }
        }

        /// Parses `debug`, `info`, `warning`/`warn` or `error`.
        public init?(name: String) {
            switch name.lowercased() {
            case "debug": self = .debug
            case "info": self = .info
            case "warning", "warn": self = .warning
            case "error": self = .error
            default: return nil
            }
        }
    }

    /// Records below this level are not written.
    public let minimum: Level

    /// A log that writes records of `minimum` and above.
    public init(minimum: Level = .info) { self.minimum = minimum }

    /// Whether records of this level are written (check before building costly fields).
    @inlinable
    public func enabled(_ level: Level) -> Bool { level >= minimum }

    /// Writes one record when `level` is at or above the minimum.
    public func callAsFunction(_ level: Level, _ message: String, _ fields: KeyValuePairs<String, String> = [:]) {
        guard level >= minimum else { return }
        // Built as bytes in one buffer (a request's line is written on every page view).
        var line: [UInt8] = []
        line.reserveCapacity(256)
        line.append(contentsOf: "level=".utf8)
        line.appendUTF8(level.name)
        line.append(contentsOf: " msg=".utf8)
        Log.appendQuoted(message, to: &line)
        for (key, value) in fields {
            line.append(UInt8(ascii: " "))
            line.appendUTF8(key)
            line.append(UInt8(ascii: "="))
            Log.appendQuoted(value, to: &line)
        }
        line.append(UInt8(ascii: "\n"))
        // One write(2) per record, so lines from several threads never interleave.
        _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }

    private static func appendQuoted(_ value: String, to line: inout [UInt8]) {
        // Most values are plain: judged and copied where they lie, in one pass.
        let appended = value.withUTF8Bytes { bytes in
            guard !bytes.isEmpty, bytes.allSatisfy(isPlain) else { return false }
            line.append(contentsOf: bytes)
            return true
        }
        if !appended { line.appendUTF8(quoted(value)) }
    }

    private static func isPlain(_ value: String) -> Bool { !value.isEmpty && value.utf8.allSatisfy(isPlain) }

    private static func isPlain(_ byte: UInt8) -> Bool { byte > 0x20 && byte != 0x22 && byte != 0x3D && byte < 0x7F }

    /// Quotes a value when it has spaces, quotes, `=` or anything but printable ASCII. Inside
    /// the quotes every control character (C0, DEL, C1) and every line or paragraph separator
    /// (U+0085, U+2028, U+2029, which some log viewers break lines at) is written as `\u{…}`, so
    /// a value can never start a forged line.
    public static func quoted(_ value: String) -> String {
        if isPlain(value) { return value }
        var out = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if Log.needsEscape(scalar.value) {
                    out += "\\u{" + String(scalar.value, radix: 16) + "}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    /// C0 controls, DEL, C1 controls (U+0085 among them), and U+2028/U+2029.
    private static func needsEscape(_ value: UInt32) -> Bool {
        value < 0x20 || (0x7F...0x9F).contains(value) || value == 0x2028 || value == 0x2029
    }
}
