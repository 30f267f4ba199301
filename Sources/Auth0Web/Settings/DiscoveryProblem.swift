import Web

/// Why the provider's discovery document could not be used; `line` names the setting that points
/// at the provider (`AUTH0_DOMAIN` or `ISSUER_BASE_URL`).
public struct DiscoveryProblem: Error, Equatable, CustomStringConvertible {
    /// What went wrong, without the setting's name.
    public let reason: String
    /// True when trying again later may succeed (no answer, or a 5xx).
    public let transient: Bool

    /// The setting `line` names.
    public let setting: String

    init(_ reason: String, transient: Bool = false, setting: String = "AUTH0_DOMAIN") {
        self.reason = reason
        self.transient = transient
        self.setting = setting
    }

    /// The same problem, said of `setting`.
    func naming(_ setting: String) -> DiscoveryProblem {
        DiscoveryProblem(reason, transient: transient, setting: setting)
    }

    /// The line start-up and `check-config` print.
    public var line: String { setting + ": " + reason }
    /// The same as `line`.
    public var description: String { line }
}
