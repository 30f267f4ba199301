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
        /// `level=… msg=`, where a record starts.
        fileprivate var prefix: StaticString {
            switch self {
            case .debug: "level=debug msg="
            case .info: "level=info msg="
            case .warning: "level=warning msg="
            case .error: "level=error msg="
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
    public func enabled(_ level: Level) -> Bool { level >= minimum }

    /// Writes one record when `level` is at or above the minimum.
    public func callAsFunction(_ level: Level, _ message: String, _ fields: KeyValuePairs<String, String> = [:]) {
        write(level, message, requestID: nil, fields)
    }

    /// Writes one record, with ` id=requestID` first when there is one (`RequestLog`'s records).
    func write(_ level: Level, _ message: String, requestID: String?, _ fields: KeyValuePairs<String, String>) {
        guard level >= minimum else { return }
        write(level, heldBy: HeldLogLines.ofThisThread.existingValue(), begin: { Line(level, message, at: $0) }) {
            line in
            if let requestID { line.field("id", requestID) }
            for (key, value) in fields { line.field(named: key, value) }
        }
    }

    /// A record of `level` to build field by field and then `write(_:)` (check `enabled` first).
    /// A record written on every request is better begun from a `LineStart` with `write(_:_:)`.
    public func line(_ level: Level, _ message: String) -> Line { Line(level, message) }

    /// A record's level and message, made into bytes once for a line written on every request:
    /// the message is judged and quoted when the start is made, not on each line.
    public struct LineStart: Sendable {
        /// The record's level.
        public let level: Level
        fileprivate let bytes: [UInt8]

        /// The start of a record of `level` saying `message`.
        public init(_ level: Level, _ message: String) {
            self.level = level
            bytes = Line(level, message).bytes.withBytes { Array($0) }
        }
    }

    /// Writes one record begun from `start`, its fields added by `fill`.
    public func write(_ start: LineStart, _ fill: (inout Line) -> Void) {
        guard start.level >= minimum else { return }
        write(start, heldBy: HeldLogLines.ofThisThread.existingValue(), fill)
    }

    /// `write(_:_:)`, its lines held by `held` when there is one.
    func write(_ start: LineStart, heldBy held: HeldLogLines?, _ fill: (inout Line) -> Void) {
        write(start.level, heldBy: held, begin: { Line(start, at: $0) }, fill)
    }

    /// Every record written whole: below `warning`, on a thread that holds its lines, it is built
    /// where it will be held (no buffer of its own, no copy). A record logged from inside `fill`
    /// is written at once, ahead of what is held.
    private func write(
        _ level: Level, heldBy held: HeldLogLines?, begin: (consuming GrowingBytes) -> Line,
        _ fill: (inout Line) -> Void
    ) {
        guard level < .warning, let held, let lent = held.lend() else {
            var line = begin(GrowingBytes(capacity: 256))
            fill(&line)
            return write(line, heldBy: held)
        }
        var line = begin(lent)
        fill(&line)
        line.bytes.append(UInt8(ascii: "\n"))
        held.takeBack(line.bytes, lineStart: line.start)
    }

    /// Writes a record built with `line(_:_:)`: whole in one write(2), so lines from several
    /// threads never interleave; held with the thread's other lines if it holds them.
    public func write(_ line: consuming Line) { write(line, heldBy: HeldLogLines.ofThisThread.existingValue()) }

    private func write(_ line: consuming Line, heldBy held: HeldLogLines?) {
        line.bytes.append(UInt8(ascii: "\n"))
        guard let held else { return line.bytes.withBytes { HeldLogLines.write($0) } }
        if line.level < .warning {
            line.bytes.withBytes { held.hold($0) }
        } else {
            line.bytes.withBytes { held.writeAfterHeld($0) }
        }
    }

    /// From now on this thread's records below `warning` are held and written several at a
    /// time, by `writeHeldLines()` (call it before the thread waits, and before it exits) or
    /// when they fill one atomic write (4 KiB); a warning or an error is written at once, after
    /// what is held. For a thread that answers many requests per wake-up.
    public static func holdLinesOnThisThread() { _ = HeldLogLines.ofThisThread.value() }

    /// Writes the records this thread holds, if any.
    public static func writeHeldLines() { HeldLogLines.ofThisThread.existingValue()?.writeOut() }

    /// One record being built, as bytes in one buffer.
    public struct Line: ~Copyable {
        fileprivate var bytes: GrowingBytes
        fileprivate let level: Level
        /// Where the record begins in `bytes`: past the lines held before it when it is built
        /// in the thread's buffer of held lines.
        fileprivate let start: Int

        /// A record of `level` saying `message`, in a buffer of its own or at the end of `buffer`.
        fileprivate init(
            _ level: Level, _ message: String, at buffer: consuming GrowingBytes = GrowingBytes(capacity: 256)
        ) {
            self.level = level
            bytes = buffer
            start = bytes.count
            bytes.append(level.prefix)
            LogValueBytes.appendQuoted(message, to: &bytes)
        }

        /// A record begun from `start`, at the end of `buffer`.
        fileprivate init(_ start: LineStart, at buffer: consuming GrowingBytes) {
            level = start.level
            bytes = buffer
            self.start = bytes.count
            bytes.append(start.bytes)
        }

        /// Adds ` key=value`, the value quoted when it needs to be.
        public mutating func field(_ key: StaticString, _ value: String) {
            begin(key)
            LogValueBytes.appendQuoted(value, to: &bytes)
        }

        /// Adds ` key=digits`.
        public mutating func field(_ key: StaticString, _ value: Int) {
            begin(key)
            bytes.appendDecimal(value)
        }

        /// ` key=value` for a key known only at run time (`Log.callAsFunction`'s fields).
        fileprivate mutating func field(named key: String, _ value: String) {
            bytes.append(UInt8(ascii: " "))
            bytes.append(key)
            bytes.append(UInt8(ascii: "="))
            LogValueBytes.appendQuoted(value, to: &bytes)
        }

        /// ` key=`, where every field starts.
        private mutating func begin(_ key: StaticString) {
            bytes.append(UInt8(ascii: " "), key, UInt8(ascii: "="))
        }

        /// The record so far (for tests).
        package var text: String { bytes.withBytes { String(decoding: $0[start...], as: UTF8.self) } }
    }

    /// Quotes a value when it has spaces, quotes, `=` or anything but printable ASCII. Inside
    /// the quotes every control character (C0, DEL, C1) and every line or paragraph separator
    /// (U+0085, U+2028, U+2029, which some log viewers break lines at) is written as `\u{…}`, so
    /// a value can never start a forged line.
    public static func quoted(_ value: String) -> String {
        if LogValueBytes.isPlain(value) { return value }
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
