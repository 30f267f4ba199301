import FoundationEssentials
import OpenSSLCrypto
public import Web

/// Every setting of this product as an OpenID Connect Relying Party, read once at start-up in
/// groups (one type each, reading its own settings through one `SettingsReader`) and checked
/// whole: every problem is reported at once, one line each, naming the setting. What needs the
/// provider's discovery document is judged after discovery, in `ProviderFit`.
public struct RelyingPartySettings: Sendable {
    /// The provider and this site's addresses there.
    public let provider: ProviderSettings
    /// This application at the provider and how it proves itself.
    public let client: ClientSettings
    /// Pushed authorization requests, DPoP and a security profile.
    public let binding: BindingSettings
    /// The sessions' cookies and lives.
    public let sessions: SessionSettings
    /// The identity assertions for sibling apps.
    public let assertions: IdentityAssertionSettings
    /// The application's own keys, each once with its certificate and what it signs.
    public let clientKeys: [ClientKey]

    /// Reads every group through `reader` (which keeps the problems and what was read); nil when
    /// any setting is wrong.
    public init?(reading reader: inout SettingsReader) {
        let provider = ProviderSettings.read(&reader)
        let idTokens = provider?.idTokenSigningAlgorithm
        let client = ClientSettings.read(&reader, idTokens: idTokens)
        let binding = BindingSettings.read(&reader, client: client, idTokens: idTokens)
        let sessions = SessionSettings.read(&reader)
        let assertions = IdentityAssertionSettings.read(&reader, baseURL: provider?.baseURL)
        guard let provider, let client, let binding, let sessions, let assertions else { return nil }
        self.provider = provider
        self.client = client
        self.binding = binding
        self.sessions = sessions
        self.assertions = assertions
        clientKeys = ClientKey.all(client: client, binding: binding)
    }

    /// Reads and checks the settings of `environment`; throws `SettingsProblems` listing every problem.
    public init(environment: [String: String]) throws {
        var reader = SettingsReader(environment: environment)
        guard let settings = Self(reading: &reader), reader.problems.isEmpty else {
            throw SettingsProblems(lines: reader.problems)
        }
        self = settings
    }

    /// The provider's issuer.
    public var issuer: String { provider.issuer }
    /// Where people reach the product, without a trailing slash.
    public var baseURL: String { provider.baseURL }
    /// True when cookies must be `Secure` (the site is served over https).
    public var secureCookies: Bool { baseURL.hasPrefix("https://") }
    /// The origin of the tenant (for the CSP's `form-action`): the issuer's scheme, host and port.
    public var tenantOrigin: String {
        let afterScheme = issuer.firstRange(of: "://").map(\.upperBound) ?? issuer.startIndex
        return String(issuer[..<(issuer[afterScheme...].firstIndex(of: "/") ?? issuer.endIndex)])
    }
    /// The issuer ending in `/`, under which Auth0 serves its own paths (`api/v2/`, `v2/logout`).
    public var issuerBase: String { Self.withSlash(issuer) }
    /// Where the provider sends the browser back after login.
    public var callbackURL: String { baseURL + "/callback" }
    /// Where the provider sends the browser back after logout.
    public var loggedOutURL: String { baseURL + "/logged-out" }
    /// The Management API's base, e.g. `https://TENANT/api/v2/`: the audience when that is a
    /// Management API (with a custom domain, the tenant's canonical one, where Auth0 serves it),
    /// else the issuer's.
    public var managementAPI: String {
        if let audience = provider.audience, audience.hasSuffix("/api/v2/") { return audience }
        return issuerBase + "api/v2/"
    }
}
