import Auth0Web
import Web

/// The Auth0 mechanisms wired as the product wires them, over a test tenant and clock.
public struct TestMechanisms {
    /// The login transaction cookies.
    public let transactions: TransactionCookies
    /// The session cookies (`/affirmation` carries the access token).
    public let sessions: SessionCookies
    /// Metadata reads and saves with renewal.
    public let metadata: MetadataAccess
    /// Login completion at the callback.
    public let logins: LoginCompletion

    /// Mechanisms for `settings` (`TestSettings`' by default) over `http`, at the time `clock` says.
    public init(http: any HTTPClient, clock: Clock, settings: Auth0Settings = TestSettings.auth0) throws {
        let endpoints = TestSettings.endpoints
        transactions = try TransactionCookies(secure: true, secrets: settings.cookieSecrets, clock: clock)
        sessions = try SessionCookies(
            secure: true, secrets: settings.cookieSecrets, clock: clock, accessTokenPath: "/affirmation")
        let tokens = TokenClient(settings: settings, endpoints: endpoints, http: http)
        metadata = MetadataAccess(
            management: ManagementClient(settings: settings, http: http, clock: clock),
            renewer: TokenRenewer(tokens: tokens, clock: clock), clock: clock, events: NoAuth0Events())
        let keys = JWKSCache(url: endpoints.jwks, http: http, clock: clock, timeoutSeconds: 5)
        logins = LoginCompletion(
            transactions: transactions, tokens: tokens,
            idTokens: IDTokenVerifier(issuer: endpoints.issuer, clientID: settings.clientID, keys: keys, clock: clock),
            userinfo: UserInfoClient(settings: settings, endpoints: endpoints, http: http), metadata: metadata,
            clock: clock)
    }
}
