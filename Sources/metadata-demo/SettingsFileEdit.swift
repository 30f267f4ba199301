import Foundation

/// Writes one setting into a settings file (systemd's `EnvironmentFile=` format), keeping every
/// other line as it was: the line that sets it is replaced, or, when none does, one is added.
/// The file is replaced whole (written beside it, then renamed), keeping its mode.
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
        try write(lines.joined(separator: "\n") + "\n", to: path, mode: mode)
    }

    /// Writes `text` to `path` with `mode`, replacing what was there in one step.
    static func write(_ text: String, to path: String, mode: Int) throws {
        let temporary = path + ".new-\(getpid())"
        guard
            FileManager.default.createFile(
                atPath: temporary, contents: Data(text.utf8), attributes: [.posixPermissions: mode])
        else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: temporary]) }
        chmod(temporary, mode_t(mode))  // whatever the umask
        if rename(temporary, path) != 0 {
            unlink(temporary)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
    }

    /// True when `line` sets `name` (`NAME=…`, `export NAME=…`, spaces allowed around `=`).
    private static func sets(_ name: String, _ line: String) -> Bool {
        var rest = Substring(line).drop { $0 == " " || $0 == "\t" }
        if rest.hasPrefix("export ") { rest = rest.dropFirst(7).drop { $0 == " " } }
        guard rest.hasPrefix(name) else { return false }
        return rest.dropFirst(name.count).drop { $0 == " " || $0 == "\t" }.hasPrefix("=")
    }
}
