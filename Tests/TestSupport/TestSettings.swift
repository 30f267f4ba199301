import Auth0Web

/// Settings of a made-up tenant and site, shared by the unit tests.
public enum TestSettings {
    /// The environment of a good configuration: tenant `tenant.example.com`, client `c`, site
    /// `https://demo.example.com`.
    public static let environment = [
        "AUTH0_DOMAIN": "tenant.example.com", "AUTH0_CLIENT_ID": "c", "AUTH0_CLIENT_SECRET": "s",
        "AUTH0_SECRET": String(repeating: "x", count: 32), "APP_BASE_URL": "https://demo.example.com",
    ]

    // swift-format-ignore: NeverUseForceTry
    /// `environment` read as the worker reads it.
    public static let auth0 = try! Auth0Settings(environment: environment)

    /// The tenant's endpoints at Auth0's documented paths.
    public static let endpoints = TenantEndpoints.documented(issuer: auth0.issuer)

    /// `environment` with some settings changed (nil removes one).
    public static func environment(_ changes: [String: String?]) -> [String: String] {
        var env = environment
        for (name, value) in changes { env[name] = value }
        return env
    }
}
