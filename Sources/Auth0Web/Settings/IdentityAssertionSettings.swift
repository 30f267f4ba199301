public import OpenSSLCrypto
import Web

/// The identity assertions `/auth/check` hands sibling apps: the keys that sign them and whom
/// they are for.
public struct IdentityAssertionSettings: Sendable {
    /// EC P-256 private keys: the first signs, every one is published at `/.well-known/jwks.json`.
    /// Empty: no assertions, no key set.
    public let keys: [ECPrivateKey]
    /// The `aud` of the assertions, the sibling app they are for.
    public let audience: String

    /// Reads the group; `baseURL` (nil when it was wrong) gives the audience's default. Nil when
    /// any of it is wrong.
    public static func read(_ reader: inout SettingsReader, baseURL: String?) -> IdentityAssertionSettings? {
        let start = reader.problems.count
        let keys = RelyingPartySettings.assertionKeys(reader.secret(.identityAssertionKey, optional: true), &reader)
        let audience = reader.text(.identityAssertionAudience) ?? baseURL.map { $0 + "/mini/" }
        reader.shows(.identityAssertionAudience, audience)
        guard reader.problems.count == start, let audience else { return nil }
        return IdentityAssertionSettings(keys: keys, audience: audience)
    }
}

extension Setting {
    static let identityAssertionKey = Setting(
        "IDENTITY_ASSERTION_KEY", "EC P-256 keys that sign the identity assertions for sibling apps (the first signs)",
        secret: true, credential: "assertion-key", formerName: "ASSERTION_KEY")
    static let identityAssertionAudience = Setting(
        "IDENTITY_ASSERTION_AUDIENCE", "the identity assertions' aud: the sibling app under /mini/",
        formerName: "ASSERTION_AUDIENCE")
}
