import FoundationEssentials
import Glibc
import Web

/// Writes one setting into a settings file (systemd's `EnvironmentFile=` format), keeping every
/// other line as it was: the line that sets it is replaced, or, when none does, one is added.
/// The file is replaced whole (`AtomicFile`), keeping its mode.
enum SettingsFileEdit {
    static func set(_ name: String, to value: String, in path: String) throws {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var lines = text.components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }
        let line = "\(name)=\(value)"
        if let index = lines.firstIndex(where: { Self.sets(name, $0) }) {
            lines[index] = line
        } else {
            lines.append(line)
        }
        let mode = (try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] as? Int ?? 0o640
        try AtomicFile.write(Array((lines.joined(separator: "\n") + "\n").utf8), to: path, mode: mode_t(mode))
    }

    /// True when `line` sets `name` (`NAME=…`, `export NAME=…`, spaces allowed around `=`).
    private static func sets(_ name: String, _ line: String) -> Bool {
        var rest = Substring(line).drop { $0 == " " || $0 == "\t" }
        if rest.hasPrefix("export ") { rest = rest.dropFirst(7).drop { $0 == " " } }
        guard rest.hasPrefix(name) else { return false }
        return rest.dropFirst(name.count).drop { $0 == " " || $0 == "\t" }.hasPrefix("=")
    }
}
