import Web

/// The sessions' cookies and lives: the keys that seal the cookies, how long a session lasts idle
/// and at most, how often a session is checked with the provider.
public struct SessionSettings: Sendable {
    /// Comma-separated secrets, each at least 32 random bytes written as hex or base64; the first
    /// seals cookies, all open them.
    public let cookieSecrets: [String]
    /// Seconds a session lasts without being used.
    public let rollingLifetime: Int64
    /// Seconds after login after which the session ends whatever happens.
    public let absoluteLifetime: Int64
    /// `GET /` of a session last checked longer ago than this renews its access token and reads
    /// the metadata again, so a session whose refresh token the provider revoked ends. 0: never.
    public let revalidateSeconds: Int64

    /// Reads the group; nil when any of it is wrong.
    public static func read(_ reader: inout SettingsReader) -> SessionSettings? {
        let start = reader.problems.count
        let text = reader.secret(.auth0Secret)
        let secrets = text?.split(separator: ",").map { String($0).trimmingWhitespace(keepingLineBreaks: true) }
        if secrets == nil {
            reader.problem(
                .auth0Secret, "missing; generate one with `openssl rand -hex 32` (or set AUTH0_SECRET_FILE)")
        } else if let secrets, text?.isEmpty == false,  // an unreadable or empty file is reported already
            secrets.isEmpty || secrets.contains(where: { CookieSecret.randomBytes($0) == nil })
        {
            reader.problem(
                .auth0Secret,
                "each comma-separated secret must be at least 32 random bytes written as hex or base64 "
                    + "(a chosen phrase can be guessed from any cookie); make one with `openssl rand -hex 32`")
        }
        let rolling = reader.value(.sessionRollingSeconds)
        let absolute = reader.value(.sessionAbsoluteSeconds)
        let revalidate = reader.value(.sessionRevalidateSeconds)
        guard reader.problems.count == start, let secrets else { return nil }
        return SessionSettings(
            cookieSecrets: secrets, rollingLifetime: rolling, absoluteLifetime: absolute, revalidateSeconds: revalidate)
    }
}

extension Setting {
    static let auth0Secret = Setting(
        "AUTH0_SECRET", "the cookie keys, comma-separated; the first seals", secret: true, credential: "cookie-secret",
        guideStep: configure)
}

extension TypedSetting {
    /// A session's lifetime: at least a minute.
    private static var lifetimes: ClosedRange<Int> { 60...Int(Int32.max) }
    static var sessionRollingSeconds: TypedSetting<Int64> {
        Setting("SESSION_ROLLING_SECONDS", "seconds a session lasts unused").seconds(in: lifetimes, default: 86_400)
    }
    static var sessionAbsoluteSeconds: TypedSetting<Int64> {
        Setting("SESSION_ABSOLUTE_SECONDS", "seconds a session lasts at most")
            .seconds(in: lifetimes, default: 7 * 86_400)
    }
    static var sessionRevalidateSeconds: TypedSetting<Int64> {
        Setting(
            "SESSION_REVALIDATE_SECONDS", "seconds after which a session is checked with the provider again (0: never)"
        ).seconds(in: 0...Int(Int32.max), default: 900)
    }
}
