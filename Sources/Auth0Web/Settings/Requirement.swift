/// How a protocol feature the provider may offer is used (`PUSHED_AUTHORIZATION_REQUESTS`, `DPOP`).
public enum Requirement: String, Sendable, CaseIterable {
    /// When the provider's discovery document offers it (and, for DPoP, a key is given).
    case auto
    /// Always: start-up refuses a provider that does not offer it.
    case required
    /// Never.
    case off
}
