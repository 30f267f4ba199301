import Foundation
public import OpenSSLCrypto
import Web

/// The product's Auth0 settings, with the names Auth0's web SDKs use. Read once at start-up and
/// checked whole: every problem is reported at once, one line each, naming the setting.
public struct Auth0Settings: Sendable {
    /// The provider's issuer, exactly as its discovery document and tokens must name it: from
    /// `AUTH0_DOMAIN`, the tenant host (`example.us.auth0.com`, meaning https, or a full `http://`
    /// URL for a tenant on loopback) with `/`; or `ISSUER_BASE_URL` as given, path and all
    /// (`https://host/realms/demo`, `https://accounts.google.com`).
    public let issuer: String
    /// Where `issuer` came from: `AUTH0_DOMAIN` or `ISSUER_BASE_URL` (problems with the provider name it).
    public let issuerSetting: String
    /// `AUTH0_CLIENT_ID`.
    public let clientID: String
    /// `AUTH0_CLIENT_SECRET`, or the contents of the file `AUTH0_CLIENT_SECRET_FILE`.
    public let clientSecret: String
    /// `AUTH0_SECRET` (or `AUTH0_SECRET_FILE`): comma-separated secrets, each at least 32 random
    /// bytes written as hex or base64; the first seals cookies, all open them.
    public let cookieSecrets: [String]
    /// `APP_BASE_URL`: where people reach the product, e.g. `https://demo.example.com`.
    public let baseURL: String
    /// `OIDC_PROVIDER`: `auth0` or `generic`. Auth0's own features (the Management API for the
    /// metadata, `/v2/logout`, `audience`) are used only with `auth0`, the default with
    /// `AUTH0_DOMAIN` or an issuer on `*.auth0.com`; any other issuer is `generic`.
    public let isAuth0: Bool
    /// `AUTH0_AUDIENCE`: the API the access token is for. Default: Auth0's Management API; none
    /// (no `audience` sent) for a generic provider.
    public let audience: String?
    /// `AUTH0_SCOPE`. Default: `openid profile email read:current_user update:current_user_metadata
    /// offline_access` with Auth0, `openid profile email offline_access` with a generic provider.
    public let scope: String
    /// True when `AUTH0_SCOPE` is not set: the default may then be fitted to the provider.
    public let scopeIsDefault: Bool
    /// `AUTH0_LOGOUT`: `v2` (`/v2/logout`, the default with `AUTH0_DOMAIN`) or `oidc` (the
    /// discovered `end_session_endpoint` with `logout_hint`, the default with `ISSUER_BASE_URL`).
    public let logoutMode: LogoutMode
    /// True when `AUTH0_LOGOUT` is not set: a generic provider without an `end_session_endpoint`
    /// (Google publishes none) then logs out here only, rather than refusing to start.
    public let logoutModeIsDefault: Bool
    /// `SESSION_ROLLING_SECONDS` (default 86400) and `SESSION_ABSOLUTE_SECONDS` (default 604800).
    public let rollingLifetime: Int64
    /// `SESSION_ABSOLUTE_SECONDS`: seconds after login after which the session ends whatever happens.
    public let absoluteLifetime: Int64
    /// `SESSION_REVALIDATE_SECONDS`: `GET /` of a session last checked longer ago than this
    /// renews its access token and reads the metadata again, so a session whose refresh token
    /// the tenant revoked ends, and metadata changed elsewhere shows. Default 900; 0 turns it off.
    public let revalidateSeconds: Int64
    /// `AUTH0_TIMEOUT_SECONDS`: the limit of each call to the tenant (default 10).
    public let timeoutSeconds: Double

    /// `ID_TOKEN_SIGNING_ALG`: how the provider signs this application's ID tokens, as the
    /// application is registered there (RS256 unless told; HS256/384/512 are checked with the
    /// client secret). A token signed otherwise is refused.
    public let idTokenSigningAlgorithm: SigningAlgorithm

    /// `CLIENT_AUTH_METHOD`: `client_secret_basic` or `client_secret_post`; nil lets
    /// `ClientAuthentication.chosen` decide from the provider's discovery document.
    public let clientAuthentication: ClientAuthentication?

    /// `CLIENT_ASSERTION_KEY` (or `_FILE`, or the systemd credential `client-assertion-key`): RSA
    /// private keys as PEM blocks, for `private_key_jwt`; the first signs, the others are kept
    /// registered at the provider for rotation. Empty unless the application authenticates so.
    public let clientAssertionKeys: [RSAPrivateKey]
    /// `CLIENT_ASSERTION_ALG`: how the assertions are signed, as the key is registered (RS256).
    public let clientAssertionAlgorithm: SigningAlgorithm

    /// `SECURITY_PROFILE`: a whole profile in one setting (FAPI 2.0), or nil.
    public let securityProfile: SecurityProfile?

    /// `DPOP`: whether the product's tokens are bound to `dpopKey` (RFC 9449).
    public let dpop: Requirement
    /// `DPOP_KEY` (or `_FILE`, or the systemd credential `dpop-key`): the EC P-256 private key
    /// every worker proves its tokens with (the same on every worker: a session's token is used
    /// by whichever worker serves it); nil when not given.
    public let dpopKey: ECPrivateKey?

    /// `PUSHED_AUTHORIZATION_REQUESTS`: whether logins push their request first (RFC 9126).
    public let pushedAuthorization: Requirement

    /// `ASSERTION_KEY` (or `ASSERTION_KEY_FILE`, or the systemd credential `assertion-key`): the
    /// EC P-256 private keys (PEM blocks, one after another) that sign the identity assertions
    /// `/auth/check` hands sibling apps; the first signs, every one is published at
    /// `/.well-known/jwks.json`. Empty: no assertions, no key set.
    public let assertionKeys: [ECPrivateKey]
    /// `ASSERTION_AUDIENCE`: the `aud` of the assertions, the sibling app they are for. Default:
    /// the base URL with `/mini/`.
    public let assertionAudience: String

    /// Which logout endpoint of the tenant ends its session.
    public enum LogoutMode: String, Sendable { case v2, oidc }

    /// The scopes asked of Auth0 when `AUTH0_SCOPE` is not set.
    public static let defaultScope =
        "openid profile email read:current_user update:current_user_metadata offline_access"
    /// The scopes asked of a generic provider when `AUTH0_SCOPE` is not set.
    public static let genericScope = "openid profile email offline_access"

    /// True when cookies must be `Secure` (the site is served over https).
    public var secureCookies: Bool { baseURL.hasPrefix("https://") }
    /// The origin of the tenant (for the CSP's `form-action`): the issuer's scheme, host and port.
    public var tenantOrigin: String {
        let afterScheme = issuer.range(of: "://").map(\.upperBound) ?? issuer.startIndex
        return String(issuer[..<(issuer[afterScheme...].firstIndex(of: "/") ?? issuer.endIndex)])
    }
    /// The issuer ending in `/`, under which Auth0 serves its own paths (`api/v2/`, `v2/logout`).
    public var issuerBase: String { Self.withSlash(issuer) }
    /// Where Auth0 sends the browser back after login.
    public var callbackURL: String { baseURL + "/callback" }
    /// Where Auth0 sends the browser back after logout.
    public var loggedOutURL: String { baseURL + "/logged-out" }
    /// The Management API's base, e.g. `https://TENANT/api/v2/`: the audience when that is a
    /// Management API (with a custom domain, the tenant's canonical one, where Auth0 serves it),
    /// else the issuer's.
    public var managementAPI: String {
        if let audience, audience.hasSuffix("/api/v2/") { return audience }
        return issuerBase + "api/v2/"
    }

    /// Reads and checks the settings; throws `SettingsProblems` listing every problem.
    public init(environment: [String: String]) throws {
        var problems: [String] = []
        func value(_ name: String) -> String? {
            guard let raw = environment[name]?.trimmingCharacters(in: .whitespaces), !raw.isEmpty else { return nil }
            return raw
        }
        // A secret is its variable, else the file its _FILE names, else the systemd credential of
        // that name (LoadCredential= puts it in CREDENTIALS_DIRECTORY).
        // An optional one is off when its credential was not given.
        func secret(_ name: String, credential: String, optional: Bool = false) -> String? {
            if let direct = value(name) { return direct }
            let setting: String
            let path: String
            if let file = value(name + "_FILE") {
                (setting, path) = (name + "_FILE", file)
            } else if let credentials = value("CREDENTIALS_DIRECTORY"),
                !optional || FileManager.default.fileExists(atPath: credentials + "/" + credential)
            {
                (setting, path) = (name, credentials + "/" + credential)
            } else {
                return nil
            }
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                problems.append("\(setting): cannot read \(path)")
                return ""
            }
            // A secret others can read is no secret (systemd's credentials are the service's alone).
            if setting.hasSuffix("_FILE"),
                let mode = (try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] as? Int,
                mode & 0o027 != 0
            {
                problems.append(
                    "\(setting): \(path) can be read or changed by other users (mode \(String(mode & 0o777, radix: 8))); "
                        + "run `chmod 600 \(path)`")
            }
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.isEmpty { problems.append("\(setting): \(path) is empty") }
            return trimmed
        }

        let issuer = Self.issuer(domain: value("AUTH0_DOMAIN"), issuerURL: value("ISSUER_BASE_URL"), &problems)
        let clientID = value("AUTH0_CLIENT_ID")
        if clientID == nil { problems.append("AUTH0_CLIENT_ID: missing; copy it from the application's settings") }
        // `private_key_jwt` (a key given, or asked for by name) needs no client secret, unless
        // ID tokens are signed with it (HS256).
        let clientKeys = Self.clientAssertionKeys(
            secret("CLIENT_ASSERTION_KEY", credential: "client-assertion-key", optional: true), &problems)
        let authMethodText = value("CLIENT_AUTH_METHOD")
        let namedMethod = authMethodText.flatMap(ClientAuthentication.init(rawValue:))
        let authMethod = namedMethod ?? (clientKeys.isEmpty ? nil : .privateKeyJWT)
        if authMethodText != nil, namedMethod == nil {
            problems.append("CLIENT_AUTH_METHOD: must be client_secret_basic, client_secret_post or private_key_jwt")
        } else if authMethod == .privateKeyJWT, clientKeys.isEmpty {
            problems.append(
                "CLIENT_AUTH_METHOD: private_key_jwt needs CLIENT_ASSERTION_KEY (or CLIENT_ASSERTION_KEY_FILE, or the "
                    + "systemd credential client-assertion-key); make one with `metadata-demo new-client-key`")
        } else if let authMethod, authMethod != .privateKeyJWT, !clientKeys.isEmpty {
            problems.append(
                "CLIENT_ASSERTION_KEY: given, but CLIENT_AUTH_METHOD is \(authMethod.rawValue); leave one of them out")
        }
        let clientAlgorithmText = value("CLIENT_ASSERTION_ALG") ?? "RS256"
        let clientAlgorithm = SigningAlgorithm(rawValue: clientAlgorithmText).flatMap {
            ClientAssertion.algorithms.contains($0) ? $0 : nil
        }
        if clientAlgorithm == nil {
            problems.append(
                "CLIENT_ASSERTION_ALG: \"\(clientAlgorithmText)\" must be one of "
                    + ClientAssertion.algorithms.map(\.rawValue).joined(separator: ", ")
                    + ", as the key is registered at the provider")
        }
        let algorithmText = value("ID_TOKEN_SIGNING_ALG") ?? "RS256"
        let algorithm = SigningAlgorithm(rawValue: algorithmText)
        let secretOptional = authMethod == .privateKeyJWT && algorithm?.isHMAC != true
        let clientSecret =
            secret("AUTH0_CLIENT_SECRET", credential: "client-secret", optional: secretOptional)
            ?? (secretOptional ? "" : nil)
        if clientSecret == nil {
            problems.append("AUTH0_CLIENT_SECRET: missing (or set AUTH0_CLIENT_SECRET_FILE)")
        }
        let secretText = secret("AUTH0_SECRET", credential: "cookie-secret")
        let secrets = secretText?.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        if secrets == nil {
            problems.append(
                "AUTH0_SECRET: missing; generate one with `openssl rand -hex 32` (or set AUTH0_SECRET_FILE)")
        } else if let secrets, secretText?.isEmpty == false,  // an unreadable or empty file is reported above
            secrets.isEmpty || secrets.contains(where: { CookieSecret.randomBytes($0) == nil })
        {
            problems.append(
                "AUTH0_SECRET: each comma-separated secret must be at least 32 random bytes written as hex or base64 "
                    + "(a chosen phrase can be guessed from any cookie); make one with `openssl rand -hex 32`")
        }
        let baseURL = value("APP_BASE_URL").flatMap { Self.baseURL($0) }
        if value("APP_BASE_URL") == nil {
            problems.append(
                "APP_BASE_URL: missing; set it to where people reach this site, e.g. https://demo.example.com")
        } else if baseURL == nil {
            problems.append(
                "APP_BASE_URL: \"\(value("APP_BASE_URL")!)\" must be an https:// URL with no query (http:// for loopback only)"
            )
        }
        let providerText = value("OIDC_PROVIDER")
        let isAuth0 =
            providerText.map { $0 == "auth0" } ?? Self.isAuth0Issuer(issuer, fromDomain: value("AUTH0_DOMAIN") != nil)
        if let providerText, providerText != "auth0", providerText != "generic" {
            problems.append("OIDC_PROVIDER: must be auth0 or generic")
        }
        // `/v2/logout` is Auth0's own; another provider gets the OpenID way by default.
        let logout = LogoutMode(rawValue: value("AUTH0_LOGOUT") ?? (isAuth0 ? "v2" : "oidc"))
        if logout == nil { problems.append("AUTH0_LOGOUT: must be v2 or oidc") }
        let rolling = Self.seconds(
            value("SESSION_ROLLING_SECONDS"), default: 86_400, name: "SESSION_ROLLING_SECONDS", &problems)
        let absolute = Self.seconds(
            value("SESSION_ABSOLUTE_SECONDS"), default: 7 * 86_400, name: "SESSION_ABSOLUTE_SECONDS", &problems)
        let revalidateText = value("SESSION_REVALIDATE_SECONDS")
        let revalidate = revalidateText.map { Int64($0).flatMap { $0 >= 0 ? $0 : nil } } ?? 900
        if revalidate == nil {
            problems.append("SESSION_REVALIDATE_SECONDS: must be a whole number of seconds (0: off)")
        }
        let profileText = value("SECURITY_PROFILE")
        let profile = profileText.flatMap(SecurityProfile.init(rawValue:))
        if profileText != nil, profile == nil { problems.append("SECURITY_PROFILE: must be fapi2, or left out") }
        // The profile's own parts are required unless set otherwise (which is then a problem).
        func requirement(_ name: String) -> Requirement? {
            guard let text = value(name) else { return profile == nil ? .auto : .required }
            if let named = Requirement(rawValue: text) { return named }
            problems.append("\(name): must be auto, required or off")
            return nil
        }
        let dpopMode = requirement("DPOP")
        let dpopKey = Self.dpopKey(secret("DPOP_KEY", credential: "dpop-key", optional: true), &problems)
        let push = requirement("PUSHED_AUTHORIZATION_REQUESTS")
        if algorithm == nil {
            problems.append(
                "ID_TOKEN_SIGNING_ALG: \"\(algorithmText)\" must be one of "
                    + SigningAlgorithm.allCases.map(\.rawValue).joined(separator: ", ")
                    + ", as the application is registered at the provider")
        }
        if profile == .fapi2 {
            problems += SecurityProfile.problems(
                authentication: authMethod, idTokens: algorithm, dpopMode: dpopMode, hasDPoPKey: dpopKey != nil,
                push: push)
        }
        let timeout = value("AUTH0_TIMEOUT_SECONDS").map { Double($0) } ?? 10
        if timeout == nil || !(0.1...120).contains(timeout!) {
            problems.append("AUTH0_TIMEOUT_SECONDS: must be a number of seconds from 0.1 to 120")
        }

        let assertionText = secret("ASSERTION_KEY", credential: "assertion-key", optional: true)
        let assertionKeys = Self.assertionKeys(assertionText, &problems)
        let assertionAudience = value("ASSERTION_AUDIENCE") ?? baseURL.map { $0 + "/mini/" }

        guard problems.isEmpty, let issuer, let clientID, let clientSecret, let secrets, let baseURL, let logout,
            let rolling, let absolute, let timeout, let revalidate, let assertionAudience, let algorithm, let push,
            let clientAlgorithm, let dpopMode
        else { throw SettingsProblems(lines: problems) }
        dpop = dpopMode
        securityProfile = profile
        self.dpopKey = dpopKey
        clientAssertionKeys = clientKeys
        clientAssertionAlgorithm = clientAlgorithm
        pushedAuthorization = push
        idTokenSigningAlgorithm = algorithm
        self.assertionKeys = assertionKeys
        self.assertionAudience = assertionAudience
        self.issuer = issuer
        issuerSetting = value("ISSUER_BASE_URL") == nil ? "AUTH0_DOMAIN" : "ISSUER_BASE_URL"
        self.clientID = clientID
        self.clientSecret = clientSecret
        cookieSecrets = secrets
        self.baseURL = baseURL
        self.isAuth0 = isAuth0
        audience = value("AUTH0_AUDIENCE") ?? (isAuth0 ? Self.withSlash(issuer) + "api/v2/" : nil)
        scope = value("AUTH0_SCOPE") ?? (isAuth0 ? Self.defaultScope : Self.genericScope)
        scopeIsDefault = value("AUTH0_SCOPE") == nil
        logoutMode = logout
        logoutModeIsDefault = value("AUTH0_LOGOUT") == nil
        clientAuthentication = authMethod
        rollingLifetime = rolling
        absoluteLifetime = absolute
        timeoutSeconds = timeout
        revalidateSeconds = revalidate
    }
}
