import Auth0Web
import Web

/// Settings of a made-up tenant and site, shared by the unit tests.
public enum TestSettings {
    /// A cookie secret as `openssl rand -hex 32` prints one.
    public static let cookieSecret = "3f9c1a7be04d5628c1f0e9b7a4d23c856e1fb07a9d3c42e8b5f6019a7c3e2d4b"
    /// Another, for rotation.
    public static let otherCookieSecret = "b8e27d0c5f419a36e7c2d81f04b9a5e6c3d71f28a0e94b6c5d2f83a17e09c4b2"

    /// The environment of a good configuration: tenant `tenant.example.com`, client `c`, site
    /// `https://demo.example.com`.
    public static let environment = [
        "AUTH0_DOMAIN": "tenant.example.com", "AUTH0_CLIENT_ID": "c", "AUTH0_CLIENT_SECRET": "s",
        "AUTH0_SECRET": cookieSecret, "APP_BASE_URL": "https://demo.example.com",
    ]

    /// The endpoints of the provider `issuer` (`tenant.example.com` unless told) as a discovery
    /// document naming the three it must (under the issuer, at Auth0's paths), and `extra`, says
    /// them: the tests' one builder of discovery documents (`TenantEndpointsTests` writes its own,
    /// since the parsing of documents is what it tests).
    public static func discovered(issuer: String = "https://tenant.example.com/", _ extra: [String: JSONValue] = [:])
        throws -> TenantEndpoints
    {
        let base = issuer.hasSuffix("/") ? issuer : issuer + "/"
        var document: [String: JSONValue] = [
            "issuer": .string(issuer), "authorization_endpoint": .string(base + "authorize"),
            "token_endpoint": .string(base + "oauth/token"), "jwks_uri": .string(base + ".well-known/jwks.json"),
        ]
        document.merge(extra) { $1 }
        return try TenantEndpoints(discovery: .object(document), expectedIssuer: issuer)
    }

    /// The problems start-up would report for `environment` with `changes`, one line each (none
    /// when the settings are good): the tests' one way to read them.
    public static func problems(_ changes: [String: String?]) -> [String] {
        problems(in: environment(changes))
    }

    /// The problems start-up would report for exactly `environment`.
    public static func problems(in environment: [String: String]) -> [String] {
        var reader = SettingsReader(environment: environment)
        _ = RelyingPartySettings(reading: &reader)
        return reader.problems
    }

    // swift-format-ignore: NeverUseForceTry
    /// `environment` read as the worker reads it.
    public static let auth0 = try! RelyingPartySettings(environment: environment)

    /// The tenant's endpoints at Auth0's documented paths.
    public static let endpoints = TenantEndpoints.documented(issuer: auth0.issuer)

    /// `environment` with some settings changed (nil removes one).
    public static func environment(_ changes: [String: String?]) -> [String: String] {
        var env = environment
        for (name, value) in changes { env[name] = value }
        return env
    }
}
