import FoundationEssentials
import Web

/// The service unit's own `Environment=` settings, as systemd gives them to the worker beside its
/// `EnvironmentFile=` (whose values win): `settings --env-file` reads them too, so it lists what
/// the service runs with (`FASTCGI_LISTEN=systemd`, `STATE_DIR=…`), each labelled as the unit's.
/// (`check-config` does not: it would open the service's own ledger folder as root.) The
/// package's unit, then its drop-ins in name order; an empty `Environment=` forgets what came
/// before, as in systemd.exec(5).
enum ServiceUnitEnvironment {
    /// The unit the package installs, and where an operator's drop-ins for it go.
    static let unitName = "metadata-demo@.service"
    static let unitPath = "/lib/systemd/system/" + unitName
    static let dropInFolder = "/etc/systemd/system/" + unitName + ".d"

    /// Puts the unit's settings into `environment` under what a settings file gave (`origins`
    /// names those), labelled as the unit's.
    static func layer(into environment: inout [String: String], origins: inout [String: SettingSource]) {
        for (name, value) in read() where origins[name] == nil {
            environment[name] = value
            origins[name] = .unit(unitName)
        }
    }

    /// The unit's settings (none when the package's unit is not installed here).
    static func read() -> [String: String] {
        guard let unit = try? String(contentsOfFile: unitPath, encoding: .utf8) else { return [:] }
        let dropIns = ((try? FileManager.default.contentsOfDirectory(atPath: dropInFolder)) ?? [])
            .filter { $0.hasSuffix(".conf") }.sorted()
            .compactMap { try? String(contentsOfFile: dropInFolder + "/" + $0, encoding: .utf8) }
        var values: [String: String] = [:]
        for text in [unit] + dropIns {
            for line in text.split(separator: "\n") where line.hasPrefix("Environment=") {
                let assignments = words(line.dropFirst("Environment=".count))
                if assignments.isEmpty { values.removeAll() }
                for assignment in assignments {
                    guard let equals = assignment.firstIndex(of: "=") else { continue }
                    values[String(assignment[..<equals])] = String(assignment[assignment.index(after: equals)...])
                }
            }
        }
        return values
    }

    /// The space-separated assignments of one line, each optionally in double quotes.
    private static func words(_ text: Substring) -> [String] {
        var words: [String] = []
        var current = ""
        var quoted = false
        var started = false
        for character in text {
            if character == "\"" {
                quoted.toggle()
                started = true
            } else if character == " " && !quoted {
                if started { words.append(current) }
                current = ""
                started = false
            } else {
                current.append(character)
                started = true
            }
        }
        if started { words.append(current) }
        return words
    }
}
