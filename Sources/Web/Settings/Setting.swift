/// One setting the worker reads from its environment: its name, what it means in one line, and
/// how it may be given. Each group of settings declares its own (`Setting.issuerBaseURL`, …), so
/// the name, its meaning and the code that reads it sit together, and `metadata-demo settings`
/// lists exactly what is read. One whose value has a kind and a default is declared with them
/// as a `TypedSetting` (`Setting(…).wholeNumber(in:default:)`).
public struct Setting: Sendable, Hashable {
    /// The environment variable's name.
    public let name: String
    /// What it sets, in one line (the settings list prints it).
    public let meaning: String
    /// A secret: it may come from `NAME_FILE` or a systemd credential, and its value is never shown.
    public let isSecret: Bool
    /// A URL whose userinfo (`user:password@`) is a secret: shown with it hidden, whatever the
    /// URL's scheme or spelling (a Redis URL with a password).
    public let hidesUserinfo: Bool
    /// True when any part of its value is a secret (`isSecret` or `hidesUserinfo`): no list,
    /// problem or file check prints that part.
    public var carriesSecret: Bool { isSecret || hidesUserinfo }
    /// The systemd credential (`LoadCredential=`) it is read from when neither it nor `NAME_FILE` is set.
    public let credential: String?
    /// The name it was read under before, still read (with a start-up note) when it is not set.
    public let formerName: String?
    /// The example value the shipped settings file holds, which is nobody's: a problem when read.
    public let shippedExample: String?
    /// The deployment guide's step that sets it, which `check-config` names beside its problems.
    public let guideStep: String?

    /// A setting named `name`.
    public init(
        _ name: String, _ meaning: String, secret: Bool = false, hidesUserinfo: Bool = false, credential: String? = nil,
        formerName: String? = nil, shippedExample: String? = nil, guideStep: String? = nil
    ) {
        self.name = name
        self.meaning = meaning
        self.isSecret = secret
        self.hidesUserinfo = hidesUserinfo
        self.credential = credential
        self.formerName = formerName
        self.shippedExample = shippedExample
        self.guideStep = guideStep
    }
}

/// Where a setting's value came from, as the settings list says it.
public enum SettingSource: Sendable, Equatable, CustomStringConvertible {
    /// The process's environment.
    case environment
    /// A settings file read with `--env-file` (its path), as the unit's `EnvironmentFile=` is.
    case settingsFile(String)
    /// The service unit's own `Environment=` (the unit's name), as `--env-file` reads it beside the file.
    case unit(String)
    /// The environment, under the setting's former name.
    case formerName(String)
    /// The file `NAME_FILE` names.
    case file(String)
    /// A systemd credential in `CREDENTIALS_DIRECTORY`.
    case credential(String)
    /// Not set: the default, worked out from the other settings where it depends on them.
    case unset

    /// How the settings list says it.
    public var description: String {
        switch self {
        case .environment: "environment"
        case .settingsFile(let path): path
        case .unit(let name): "unit \(name)"
        case .formerName(let name): "environment, as \(name)"
        case .file(let path): "file \(path)"
        case .credential(let name): "systemd credential \(name)"
        case .unset: "default"
        }
    }
}

/// One setting as it was read: where from, and the value in effect (filled in once the group
/// that reads it has worked out its default).
public struct SettingRead: Sendable {
    /// The setting.
    public let setting: Setting
    /// Where its value came from.
    public let source: SettingSource
    /// The name it was given under: its own, or its former name (problems with it name that).
    public let givenAs: String
    /// Its value in effect as the settings list shows it: a secret only as set or not set.
    public var shown: String
}

extension Setting {
    /// `value` as a list or a problem may show it: a secret only as set; a URL's userinfo, up to
    /// its last `@` (where a URL reader takes it to end), as `(hidden)`.
    public func shown(_ value: String) -> String {
        if isSecret { return "(set)" }
        guard hidesUserinfo, let at = value.lastIndex(of: "@") else { return value }
        let scheme = value.firstRange(of: "://").map { value[..<$0.upperBound] } ?? ""
        return scheme + "(hidden)" + value[at...]
    }
}
