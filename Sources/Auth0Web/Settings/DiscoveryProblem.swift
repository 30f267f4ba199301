import Web

/// Why the tenant's discovery document could not be used; `line` names `AUTH0_DOMAIN`, the
/// setting that points at the tenant.
public struct DiscoveryProblem: Error, Equatable, CustomStringConvertible {
    /// What went wrong, without the setting's name.
    public let reason: String
    /// True when trying again later may succeed (no answer, or a 5xx).
    public let transient: Bool

    init(_ reason: String, transient: Bool = false) {
        self.reason = reason
        self.transient = transient
    }

    /// The line start-up and `check-config` print.
    public var line: String { "AUTH0_DOMAIN: " + reason }
    /// The same as `line`.
    public var description: String { line }
}
