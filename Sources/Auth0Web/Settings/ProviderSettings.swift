import Web

/// The provider this product logs people in with, and this site's addresses there: which issuer,
/// which kind of provider, what a login asks for, how ID tokens are signed, how logout ends the
/// provider's session, how long a call may take.
public struct ProviderSettings: Sendable {
    /// The provider's issuer, exactly as its discovery document and tokens must name it: from
    /// `AUTH0_DOMAIN` with `/`, or `ISSUER_BASE_URL` as given, path and all.
    public let issuer: String
    /// Where `issuer` came from: `AUTH0_DOMAIN` or `ISSUER_BASE_URL` (problems with the provider name it).
    public let issuerSetting: String
    /// What is done differently with this provider (`OIDC_PROVIDER`: Auth0's own features are
    /// used only with Auth0, by default with `AUTH0_DOMAIN` or an issuer on `*.auth0.com`).
    public let dialect: ProviderDialect
    /// True for Auth0 (only to name it: what differs is asked of `dialect`).
    public var isAuth0: Bool { dialect == .auth0 }
    /// `APP_BASE_URL` without a trailing slash: where people reach the product.
    public let baseURL: String
    /// The API the access token is for; by default Auth0's Management API, none for another provider.
    public let audience: String?
    /// The scopes a login asks for.
    public let scope: String
    /// True when `AUTH0_SCOPE` is not set: the default may then be fitted to the provider.
    public let scopeIsDefault: Bool
    /// Which logout endpoint of the provider ends its session.
    public let logoutMode: LogoutMode
    /// True when `AUTH0_LOGOUT` is not set: a provider without an `end_session_endpoint` then
    /// logs out here only, rather than refusing to start.
    public let logoutModeIsDefault: Bool
    /// The limit of each call to the provider, in seconds.
    public let timeoutSeconds: Double
    /// How the provider signs this application's ID tokens; a token signed otherwise is refused.
    public let idTokenSigningAlgorithm: SigningAlgorithm
    /// `FRONTCHANNEL_LOGOUT`: whether `/frontchannel-logout` answers; nil (not set): where the
    /// provider's discovery document says `frontchannel_logout_supported` (never Auth0's, which
    /// sends none), see `frontchannelLogout(on:)`.
    public let frontchannelLogoutSetting: Bool?

    /// Whether front-channel logout is on with the provider at `endpoints`.
    public func frontchannelLogout(on endpoints: TenantEndpoints) -> Bool {
        frontchannelLogoutSetting ?? endpoints.frontchannelLogoutSupported
    }

    /// The provider's name on the pages a person reads: Auth0, or the issuer's host.
    public var name: String {
        isAuth0 ? "Auth0" : (issuer.split(separator: "/").dropFirst().first.map(String.init) ?? issuer)
    }

    /// Which logout endpoint of the tenant ends its session.
    public enum LogoutMode: String, Sendable { case v2, oidc }

    /// Reads the group; nil when any of it is wrong (the reader has the problems).
    public static func read(_ reader: inout SettingsReader) -> ProviderSettings? {
        let start = reader.problems.count
        let domain = reader.text(.auth0Domain)
        let issuerURL = reader.text(.issuerBaseURL)
        let issuer = RelyingPartySettings.issuer(domain: domain, issuerURL: issuerURL, &reader)
        let base = reader.text(.appBaseURL)
        let baseURL = base.flatMap(RelyingPartySettings.baseURL)
        if base == nil {
            reader.problem(
                .appBaseURL, "missing; set it to where people reach this site, e.g. https://demo.example.com")
        } else if baseURL == nil {
            reader.problem(
                .appBaseURL, "\"\(base!)\" must be an https:// URL with no query (http:// for loopback only)")
        }
        let dialect = readDialect(&reader, issuer: issuer, fromDomain: domain != nil)
        let algorithm = readAlgorithm(&reader)
        // `/v2/logout` is Auth0's own; another provider gets the OpenID way by default.
        let logoutText = reader.text(.auth0Logout)
        let logout = logoutText.map { LogoutMode(rawValue: $0) } ?? dialect.defaultLogout
        if logout == nil { reader.problem(.auth0Logout, "must be v2 or oidc") }
        reader.shows(.auth0Logout, logout?.rawValue)
        let timeout = reader.value(.auth0TimeoutSeconds)
        let audience =
            reader.text(.auth0Audience)
            ?? issuer.flatMap { dialect.hasManagementAPI ? RelyingPartySettings.withSlash($0) + "api/v2/" : nil }
        reader.shows(.auth0Audience, audience)
        let scopeText = reader.text(.auth0Scope)
        let scope = scopeText ?? dialect.defaultScope
        reader.shows(.auth0Scope, scope)
        let frontchannel = reader.value(.frontchannelLogout)
        guard reader.problems.count == start, let issuer, let baseURL, let algorithm, let logout else {
            return nil
        }
        return ProviderSettings(
            issuer: issuer, issuerSetting: issuerURL == nil ? Setting.auth0Domain.name : Setting.issuerBaseURL.name,
            dialect: dialect, baseURL: baseURL, audience: audience, scope: scope, scopeIsDefault: scopeText == nil,
            logoutMode: logout, logoutModeIsDefault: logoutText == nil, timeoutSeconds: timeout,
            idTokenSigningAlgorithm: algorithm, frontchannelLogoutSetting: frontchannel)
    }

    /// `OIDC_PROVIDER`, or Auth0 for `AUTH0_DOMAIN` and issuers on Auth0's domain.
    private static func readDialect(_ reader: inout SettingsReader, issuer: String?, fromDomain: Bool)
        -> ProviderDialect
    {
        let text = reader.text(.oidcProvider)
        let dialect =
            text.flatMap(ProviderDialect.init(rawValue:))
            ?? (RelyingPartySettings.isAuth0Issuer(issuer, fromDomain: fromDomain) ? .auth0 : .generic)
        if let text, ProviderDialect(rawValue: text) == nil {
            reader.problem(.oidcProvider, "must be auth0 or generic")
        }
        reader.shows(.oidcProvider, dialect.rawValue)
        return dialect
    }

    private static func readAlgorithm(_ reader: inout SettingsReader) -> SigningAlgorithm? {
        let text = reader.value(.idTokenSigningAlg)
        guard let algorithm = SigningAlgorithm(rawValue: text) else {
            reader.problem(
                .idTokenSigningAlg,
                "\"\(text)\" must be one of " + SigningAlgorithm.allCases.map(\.rawValue).joined(separator: ", ")
                    + ", as the application is registered at the provider")
            return nil
        }
        return algorithm
    }
}

extension Setting {
    static let auth0Domain = Setting(
        "AUTH0_DOMAIN", "the Auth0 tenant's host (https), or an http:// URL on loopback; or set ISSUER_BASE_URL",
        shippedExample: "your-tenant.us.auth0.com", guideStep: configure)
    static let issuerBaseURL = Setting(
        "ISSUER_BASE_URL", "instead of AUTH0_DOMAIN: another provider's issuer URL exactly as it publishes it",
        guideStep: configure)
    static let oidcProvider = Setting(
        "OIDC_PROVIDER", "auth0 or generic: whether Auth0's own features (Management API, /v2/logout) are used")
    static let appBaseURL = Setting(
        "APP_BASE_URL", "where people reach this site (https, or http on loopback)",
        shippedExample: "https://your-site.example.com", guideStep: configure)
    /// The deployment guide's step that sets the application's settings.
    static let configure = "the deployment guide's step 4, Configure"
    static let auth0Logout = Setting("AUTH0_LOGOUT", "v2 (Auth0's /v2/logout) or oidc (the end_session_endpoint)")
    static let auth0Audience = Setting("AUTH0_AUDIENCE", "the API the login's access token is for")
    static let auth0Scope = Setting("AUTH0_SCOPE", "the scopes a login asks for")
}

extension TypedSetting {
    static var frontchannelLogout: TypedSetting<Bool?> {
        Setting(
            "FRONTCHANNEL_LOGOUT",
            "on: /frontchannel-logout ends logins a provider's logout page names; off: 404 (unset: as discovery says)"
        ).onOff(unsetMeans: "as the provider's discovery document says")
    }
    static var idTokenSigningAlg: TypedSetting<String> {
        Setting("ID_TOKEN_SIGNING_ALG", "how the provider signs this application's ID tokens, as registered there")
            .text(default: "RS256")
    }
    static var auth0TimeoutSeconds: TypedSetting<Double> {
        Setting("AUTH0_TIMEOUT_SECONDS", "the limit of each call to the provider, in seconds")
            .fractionalSeconds(in: 0.1...120, default: 10)
    }
}
