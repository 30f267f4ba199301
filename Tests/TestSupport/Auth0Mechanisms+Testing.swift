import Auth0Web
import Web

extension Auth0Mechanisms {
    /// The mechanisms as the product wires them, for `settings` (`TestSettings`' by default) and
    /// the test tenant's endpoints, over `http` at the time `clock` says.
    public static func testing(http: any HTTPClient, clock: Clock, settings: Auth0Settings = TestSettings.auth0)
        throws -> Auth0Mechanisms
    {
        try Auth0Mechanisms(
            settings: settings, endpoints: TestSettings.endpoints, http: http, clock: clock,
            accessTokenPath: "/affirmation")
    }
}
