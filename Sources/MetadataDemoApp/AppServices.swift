import Auth0Web
import Web

/// Everything the routes need besides the pages: settings, cookies, and the Auth0 clients.
public struct AppServices: Sendable {
    public let settings: Auth0Settings
    public let sessions: SessionCookies
    public let transactions: TransactionCookies
    public let tokens: TokenClient
    public let idTokens: IDTokenVerifier
    public let renewer: TokenRenewer
    public let management: ManagementClient
    public let keys: JWKSCache
    public let metrics = AppMetrics()
    public let clock: Clock

    /// Builds the services over an HTTP client (libcurl in the worker, a double in unit tests).
    public init(settings: Auth0Settings, http: any HTTPClient, clock: Clock = .system) throws {
        let http = CountingHTTPClient(http)  // the request log line says how many calls a request made
        self.settings = settings
        self.clock = clock
        sessions = try SessionCookies(
            secure: settings.secureCookies, secrets: settings.cookieSecrets, clock: clock,
            accessTokenPath: Routes.affirmationPath, rollingLifetime: settings.rollingLifetime,
            absoluteLifetime: settings.absoluteLifetime)
        transactions = try TransactionCookies(
            secure: settings.secureCookies, secrets: settings.cookieSecrets, clock: clock)
        tokens = TokenClient(settings: settings, http: http)
        let keys = JWKSCache(
            url: settings.issuer + ".well-known/jwks.json", http: http, clock: clock,
            timeoutSeconds: settings.timeoutSeconds)
        self.keys = keys
        idTokens = IDTokenVerifier(issuer: settings.issuer, clientID: settings.clientID, keys: keys, clock: clock)
        renewer = TokenRenewer(tokens: tokens, clock: clock)
        management = ManagementClient(settings: settings, http: http, clock: clock)
    }

    /// The security headers for this deployment: forms may lead to the tenant (logout, login),
    /// pictures may come from it (the dev tenant serves avatars over http on loopback).
    public var securityHeaders: SecurityHeaders {
        SecurityHeaders(formTargets: [settings.tenantOrigin], imageSources: [settings.tenantOrigin])
    }
}
