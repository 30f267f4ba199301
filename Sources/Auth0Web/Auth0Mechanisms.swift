import Web

/// The Auth0 mechanisms wired together for one tenant, the one way the product wires them (its
/// services and the mechanisms' own tests both start here): the login transaction and session
/// cookies, the token endpoint, the tenant's keys, metadata reads and saves with renewal, and
/// login completion at the callback.
public struct Auth0Mechanisms: Sendable {
    /// The login transaction cookies.
    public let transactions: TransactionCookies
    /// The session cookies (the access token's travels only to `accessTokenPath`).
    public let sessions: SessionCookies
    /// Code exchange, renewal and revocation.
    public let tokens: TokenClient
    /// The tenant's signing keys.
    public let keys: JWKSCache
    /// Reads and saves the metadata, renewing tokens when due.
    public let metadata: MetadataAccess
    /// Finishes a login at the callback.
    public let logins: LoginCompletion
    /// Renews with the refresh token, once per token across workers.
    public let renewer: TokenRenewer
    /// Checks back-channel logout tokens (with the same checks of the tenant's signature as ID tokens).
    public let logoutTokens: LogoutTokenVerifier
    /// Where login starts and logout ends.
    public let links: TenantLinks
    /// Where a login starts, pushed first when the provider takes pushed requests.
    public let loginStart: LoginStart

    /// The mechanisms for `settings` and the tenant at `endpoints`, calling it through `http` at
    /// the time `clock` says. Renewals are held to one per refresh token across workers through
    /// `ledger` when given (one process keeps to one by itself). Sessions keep the `ruleFacts`
    /// that mini apps' rules read.
    public init(
        settings: RelyingPartySettings, endpoints: TenantEndpoints, http: any HTTPClient, clock: Clock,
        accessTokenPath: String, ledger: SessionLedger? = nil, events: any Auth0Events = NoAuth0Events(),
        ruleFacts: RuleFacts = .none
    ) throws {
        transactions = try TransactionCookies(
            secure: settings.secureCookies, secrets: settings.sessions.cookieSecrets, clock: clock)
        sessions = try SessionCookies(
            secure: settings.secureCookies, secrets: settings.sessions.cookieSecrets, clock: clock,
            accessTokenPath: accessTokenPath, rollingLifetime: settings.sessions.rollingLifetime,
            absoluteLifetime: settings.sessions.absoluteLifetime)
        // This application on this provider, resolved once; every mechanism below takes it.
        let client = try ClientConfiguration(settings: settings, endpoints: endpoints, clock: clock)
        // The product's own tokens are bound to the workers' key when DPoP is on (RFC 9449).
        let binding = try DPoP.binding(client, http: http, clock: clock)
        tokens = TokenClient(client, http: http, binding: binding)
        links = TenantLinks(client)
        loginStart = LoginStart(
            links: links, tokens: tokens,
            requestObject: client.requestObject)
        // Every call made for the person goes through this one client: bound when DPoP is on.
        let forThePerson = binding ?? http
        keys = JWKSCache(
            url: endpoints.jwks, http: http, clock: clock, timeoutSeconds: settings.provider.timeoutSeconds)
        renewer = TokenRenewer(
            tokens: tokens, clock: clock, ledger: ledger, waitSeconds: settings.provider.timeoutSeconds + 5)
        metadata = MetadataAccess(
            management: ManagementClient(settings: settings, http: forThePerson, clock: clock), renewer: renewer,
            clock: clock, events: events, flagNames: ruleFacts.appMetadataFlags)
        // One set of checks of what the tenant signs for this application: ID and logout tokens.
        let tenantTokens = TenantJWT(
            issuer: endpoints.issuer, clientID: settings.client.id, keys: keys, clock: clock,
            accepted: [settings.provider.idTokenSigningAlgorithm], clientSecret: Array(settings.client.secret.utf8))
        logoutTokens = LogoutTokenVerifier(tenant: tenantTokens)
        logins = LoginCompletion(
            transactions: transactions, tokens: tokens, idTokens: IDTokenVerifier(tenant: tenantTokens),
            userinfo: UserInfoClient(client, http: forThePerson),
            keepsIDToken: settings.provider.dialect.keepsIDTokenForLogout, metadata: metadata, clock: clock,
            checks: client.callbackChecks, ruleFacts: ruleFacts, ledger: ledger)
    }
}
