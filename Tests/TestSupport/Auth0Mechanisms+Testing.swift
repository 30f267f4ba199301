import Auth0Web
import Web

extension Auth0Mechanisms {
    /// The mechanisms as the product wires them, for `settings` (`TestSettings`' by default) and
    /// `endpoints` (the test tenant's by default), over `http` at the time `clock` says.
    public static func testing(
        http: any HTTPClient, clock: Clock, settings: RelyingPartySettings = TestSettings.auth0,
        endpoints: TenantEndpoints = TestSettings.endpoints, ruleFacts: RuleFacts = .none
    ) throws -> Auth0Mechanisms {
        try Auth0Mechanisms(
            settings: settings, endpoints: endpoints, http: http, clock: clock,
            accessTokenPath: "/affirmation", ruleFacts: ruleFacts)
    }
}
