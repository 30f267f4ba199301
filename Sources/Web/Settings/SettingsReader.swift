import FoundationEssentials

/// Reads settings from an environment, one `Setting` at a time, the same way for every group:
/// a value is trimmed and an empty one is unset; a secret may come from `NAME_FILE` or a systemd
/// credential. It collects every problem (one line each, naming the setting) so start-up reports
/// them all at once, and records every setting read, where it came from and the value in effect,
/// for `metadata-demo settings`.
public struct SettingsReader {
    private let environment: [String: String]
    /// Every problem, in the order found, each with the setting it is about.
    public private(set) var found: [SettingProblem] = []
    /// One line per problem, in the order found, each starting with a setting's name.
    public var problems: [String] { found.map(\.line) }
    /// Lines worth saying at start-up that stop nothing (a former name still in use).
    public private(set) var notes: [String] = []
    /// Every setting read, in the order first read.
    public private(set) var reads: [SettingRead] = []

    /// Where a name's value in `environment` came from, when not the process's own environment
    /// (a settings file, the service unit).
    private let origins: [String: SettingSource]

    /// A reader of `environment`, each name's value from `origins`' source (the process's
    /// environment for a name it lacks).
    public init(environment: [String: String], origins: [String: SettingSource] = [:]) {
        self.environment = environment
        self.origins = origins
    }

    /// `setting`'s text, or nil when it is not set; recorded with `defaultShown` as its value in
    /// effect when unset (a group whose default depends on others says it later with `shows`).
    public mutating func text(_ setting: Setting, defaultShown: String? = nil) -> String? {
        if let value = raw(setting.name) {
            record(setting, origins[setting.name] ?? .environment, value)
            if value == setting.shippedExample {
                problem(setting, "still the shipped settings file's example (\(value)): set it to your own")
            }
            return value
        }
        if let former = setting.formerName, let value = raw(former) {
            noteFormerName(former, of: setting)
            record(setting, .formerName(former), value, givenAs: former)
            return value
        }
        record(setting, .unset, defaultShown ?? "(not set)")
        return nil
    }

    /// A secret `setting` (or a public one given as a file, a certificate): its variable (or its former name), else the file `NAME_FILE` names,
    /// else its systemd credential (`LoadCredential=` puts it in `CREDENTIALS_DIRECTORY`), which
    /// an `optional` one reads only when it was given. A file others can read or change, one that
    /// cannot be read, or an empty one is a problem (its text then ""). Nil: not given.
    public mutating func secret(_ setting: Setting, optional: Bool = false) -> String? {
        let givenAs = [setting.name, setting.formerName].compactMap { $0 }.first { raw($0) != nil }
        if let givenAs, let value = raw(givenAs) {
            if givenAs == setting.name {
                record(setting, origins[givenAs] ?? .environment, "(set)")
            } else {
                noteFormerName(givenAs, of: setting)
                record(setting, .formerName(givenAs), "(set)", givenAs: givenAs)
            }
            return value
        }
        let fileSetting = [setting.name, setting.formerName].compactMap { $0 }.map { $0 + "_FILE" }
            .first { raw($0) != nil }
        let named: String
        let path: String
        let source: SettingSource
        if let fileSetting, let file = raw(fileSetting) {
            (named, path, source) = (fileSetting, file, .file(file))
        } else if let credential = setting.credential, let directory = raw("CREDENTIALS_DIRECTORY"),
            !optional || FileManager.default.fileExists(atPath: directory + "/" + credential)
        {
            (named, path, source) = (setting.name, directory + "/" + credential, .credential(credential))
        } else {
            record(setting, .unset, "(not set)")
            return nil
        }
        record(setting, source, "(set)", givenAs: String((fileSetting ?? setting.name + "_FILE").dropLast(5)))
        return readSecretFile(path, setting: named, checksMode: fileSetting != nil && setting.isSecret)
    }

    /// The text of a secret's file, trimmed; problems for a file that cannot be read, is empty,
    /// or (`checksMode`: a secret's `_FILE` the operator made; systemd's credentials are the
    /// service's alone, and a public file, a certificate, may be anyone's to read) that other
    /// users can read or change.
    private mutating func readSecretFile(_ path: String, setting: String, checksMode: Bool) -> String {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            found.append(SettingProblem(setting, "cannot read \(path)"))
            return ""
        }
        if checksMode,
            let mode = (try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] as? Int,
            mode & 0o027 != 0
        {
            found.append(
                SettingProblem(
                    setting,
                    "\(path) can be read or changed by other users (mode \(String(mode & 0o777, radix: 8))); "
                        + "run `chmod 600 \(path)`"))
        }
        let trimmed = text.trimmingWhitespace()
        if trimmed.isEmpty { found.append(SettingProblem(setting, "\(path) is empty")) }
        return trimmed
    }

    /// Whether `setting` (or its former name) is set, recording nothing.
    public func isSet(_ setting: Setting) -> Bool {
        raw(setting.name) != nil || setting.formerName.flatMap(raw) != nil
    }

    /// A problem with `setting`: one line starting with its name as it was given (its former
    /// name, when that is what the settings still say).
    public mutating func problem(_ setting: Setting, _ text: String) {
        let name = reads.first { $0.setting.name == setting.name }?.givenAs ?? setting.name
        found.append(SettingProblem(name, text))
    }

    /// Problems already written whole (a line naming its setting, or several), about no one setting.
    public mutating func problems(_ lines: [String]) { found += lines.map { SettingProblem(nil, $0) } }

    /// `setting`'s value in effect, once its group has worked it out (a default from other settings).
    public mutating func shows(_ setting: Setting, _ value: String?) {
        guard let index = reads.firstIndex(where: { $0.setting.name == setting.name }), !setting.isSecret else {
            return
        }
        reads[index].shown = value.map(setting.shown) ?? "(not set)"
    }

    private mutating func noteFormerName(_ former: String, of setting: Setting) {
        notes.append("\(former): read as \(setting.name); rename it (the old name will stop being read)")
    }

    private func raw(_ name: String) -> String? {
        guard let text = environment[name]?.trimmingWhitespace(keepingLineBreaks: true), !text.isEmpty else {
            return nil
        }
        return text
    }

    private mutating func record(_ setting: Setting, _ source: SettingSource, _ shown: String, givenAs: String? = nil) {
        guard !reads.contains(where: { $0.setting.name == setting.name }) else { return }
        let shown = shown == "(not set)" ? shown : setting.shown(shown)
        reads.append(SettingRead(setting: setting, source: source, givenAs: givenAs ?? setting.name, shown: shown))
    }
}

extension SettingsReader {
    /// `typed`'s value: its text read as its kind, its default when unset (shown as such). A text
    /// that is not one is a problem, which stops start-up; its default stands in meanwhile.
    public mutating func value<Value>(_ typed: TypedSetting<Value>) -> Value {
        guard let text = text(typed.setting, defaultShown: typed.shownDefault) else { return typed.fallback }
        if let value = typed.parse(text) { return value }
        problem(typed.setting, typed.refusal(text))
        return typed.fallback
    }

    /// A problem with `typed`'s value that its kind alone does not see (a default from other settings).
    public mutating func problem<Value>(_ typed: TypedSetting<Value>, _ text: String) { problem(typed.setting, text) }

    /// Whether `typed` is set, recording nothing.
    public func isSet<Value>(_ typed: TypedSetting<Value>) -> Bool { isSet(typed.setting) }

    /// `typed`'s value in effect, once its group has worked it out.
    public mutating func shows<Value>(_ typed: TypedSetting<Value>, _ value: String?) { shows(typed.setting, value) }
}
