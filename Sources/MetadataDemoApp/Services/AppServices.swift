import Auth0Web
import FoundationEssentials
import Web

/// Everything the routes need besides the pages: settings, the tenant's links, cookies, and the
/// Auth0 mechanisms.
public struct AppServices: Sendable {
    /// The settings read at start-up.
    public let settings: RelyingPartySettings
    /// The Auth0 mechanisms wired for this tenant: the login's cookies and completion, the token
    /// endpoint, the tenant's keys, metadata reads and saves, logout tokens, where login starts.
    public let auth0: Auth0Mechanisms
    /// The public halves of the application's own keys, for a provider that fetches them.
    public let clientKeys: ClientKeySet
    /// What sealed cookies cannot carry: ended sessions, used logout tokens, renewals in progress.
    public let ledger: SessionLedger
    /// The product's metrics.
    public let metrics: AppMetrics
    /// The time, passed in so tests control it.
    public let clock: Clock
    /// The sessions each person has open, for "Your sessions".
    public let registry: SessionRegistry
    /// The identity assertions for sibling apps; nil when no `ASSERTION_KEY` is set.
    public let assertions: IdentityAssertions?
    /// The mini apps of `MINI_APPS_FILE` (none without it).
    public let miniApps: MiniApps
    /// The person's access tokens for mini apps' APIs.
    public let apiTokens: APITokens
    /// Whether `/frontchannel-logout` answers (`FRONTCHANNEL_LOGOUT`, else the provider's
    /// discovery document): logins then record their provider session for it to match.
    public let frontchannelLogout: Bool

    /// Builds the services for the tenant at `endpoints` (discovered at start-up) over an HTTP
    /// client (libcurl in the worker, a double in unit tests), with the session ledger kept in
    /// `store` (SQLite or Redis in the worker); `startFollowing()` then starts following it.
    /// `status` hears what an operator should read first (the service manager's `STATUS=`).
    public init(
        settings: RelyingPartySettings, endpoints: TenantEndpoints, http: any HTTPClient, store: any SharedStore,
        clock: Clock = .system, log: Log = Log(minimum: .warning), miniApps: MiniApps = MiniApps(),
        status: @escaping @Sendable (String) -> Void = { _ in }
    ) throws {
        self.miniApps = miniApps
        let http = CountingHTTPClient(http)  // the request log line says how many calls a request made
        let metrics = AppMetrics()
        let events = AppEvents(metrics: metrics, log: log, status: status)
        self.settings = settings
        self.metrics = metrics
        self.clock = clock
        assertions = try IdentityAssertions(
            keys: settings.assertions.keys, baseURL: settings.baseURL, audience: settings.assertions.audience,
            clock: clock)
        let ledger = try SessionLedger(
            store: store, retentionSeconds: settings.sessions.absoluteLifetime,
            secrets: settings.sessions.cookieSecrets, clock: clock,
            events: events)
        self.ledger = ledger
        registry = SessionRegistry(
            store: store, absoluteLifetime: settings.sessions.absoluteLifetime,
            rollingLifetime: settings.sessions.rollingLifetime,
            clock: clock, events: events)
        auth0 = try Auth0Mechanisms(
            settings: settings, endpoints: endpoints, http: http, clock: clock, accessTokenPath: Routes.affirmationPath,
            ledger: ledger, events: events, ruleFacts: miniApps.ruleFacts)
        clientKeys = ClientKeySet(settings: settings)
        apiTokens = try APITokens(
            renewer: auth0.renewer, ledger: ledger, secrets: settings.sessions.cookieSecrets, clock: clock)
        frontchannelLogout = settings.provider.frontchannelLogout(on: endpoints)
    }

    /// The security headers for this deployment: forms may lead to the tenant (logout, login),
    /// pictures may come from it (the dev tenant serves avatars over http on loopback).
    public var securityHeaders: SecurityHeaders {
        SecurityHeaders(formTargets: [settings.tenantOrigin], imageSources: [settings.tenantOrigin])
    }

    /// Ends one login of this product, the one way every route ends one (a logout here or at the
    /// provider, a session the tenant ended): the ledger refuses every copy of its cookie on every
    /// worker at once, "Your sessions" lists it no more, and this browser's cookies are cleared.
    func endLogin(_ session: Session, _ context: RequestContext) {
        ledger.endLogin(session)  // a store that is away is reported; this worker refuses it at once
        registry.loggedOut(session)
        context.endSession()
    }

    /// Ends a session the tenant ended (it refused the refresh token), as `endLogin` does.
    func endEndedByTenant(_ context: RequestContext) {
        guard let session = context.session else { return context.endSession() }
        endLogin(session, context)
    }
}
