/// What this product does differently with Auth0 than with another OpenID provider, in one
/// place: each difference is a property named for what it changes, so a route or mechanism asks
/// the dialect, never whether the provider is Auth0. `OIDC_PROVIDER` chooses it (by default Auth0
/// with `AUTH0_DOMAIN` or an issuer on `*.auth0.com`).
public enum ProviderDialect: String, Sendable {
    /// Auth0: its Management API, `/v2/logout`, `audience`, Multi-Resource Refresh Tokens.
    case auth0
    /// Any other OpenID Connect provider, as OpenID Connect and OAuth 2.0 describe it.
    case generic

    /// The provider's own API for the person's metadata (`user_metadata`, `app_metadata`).
    public var hasManagementAPI: Bool { self == .auth0 }
    /// Auth0's Native to Web SSO: `/login` passes the app's session transfer token on.
    public var takesSessionTransferToken: Bool { self == .auth0 }
    /// Access tokens for other APIs from the one refresh token (Auth0's Multi-Resource Refresh
    /// Token), as mini apps' APIs need; elsewhere only the login's own audience.
    public var issuesTokensForOtherAPIs: Bool { self == .auth0 }
    /// OpenID Connect Core §11: `offline_access` goes with `prompt=consent` (Auth0 needs none,
    /// and would show a consent page at every login), and the default scope asks for it only
    /// when the provider lists it.
    public var asksConsentForOfflineAccess: Bool { self == .generic }
    /// A `private_key_jwt` assertion's `aud`: the issuer (Auth0) or the endpoint it is sent to.
    public var assertionAudienceIsIssuer: Bool { self == .auth0 }
    /// A `private_key_jwt` assertion names its key (`kid`, the thumbprint the client's key set at
    /// `/client-jwks.json` gives it); Auth0 takes only the id it generated for the credential.
    public var namesTheAssertionsKey: Bool { self == .generic }
    /// The discovery document says whether request objects are taken, and signed how (Auth0 keeps
    /// JAR a setting of each application instead).
    public var advertisesRequestObjects: Bool { self == .generic }
    /// Auth0 takes `client_secret_post`; another provider's discovery document says.
    public var preferredClientAuthentication: ClientAuthentication? { self == .auth0 ? .post : nil }
    /// The ID token may lack `name` or `email`, which UserInfo then completes (Auth0 puts them in).
    public var completesProfileFromUserInfo: Bool { self == .generic }
    /// The ID token is kept for `id_token_hint` at logout (Auth0's logout needs none).
    public var keepsIDTokenForLogout: Bool { self == .generic }
    /// How logout ends the provider's session when `AUTH0_LOGOUT` is not set.
    public var defaultLogout: ProviderSettings.LogoutMode { self == .auth0 ? .v2 : .oidc }
    /// Without an `end_session_endpoint`, logout ends the session here only (Google publishes
    /// none), rather than refusing to start; Auth0 always has one.
    public var logsOutHereWithoutEndSession: Bool { self == .generic }
    /// The scopes asked when `AUTH0_SCOPE` is not set.
    public var defaultScope: String {
        self == .auth0
            ? "openid profile email read:current_user update:current_user_metadata offline_access"
            : "openid profile email offline_access"
    }
}
