import Foundation
import OpenSSLCrypto
import Web

/// A local stand-in for an Auth0 tenant that answers as `shared/auth0-api.md` documents:
/// discovery, JWKS, Universal Login (`/authorize` and its login page), `/oauth/token`,
/// `/userinfo`, both logouts (with back-channel logout tokens) and the Management API's user and
/// session endpoints.
public struct DevTenant: Responder {
    let config: TenantConfig
    let store: TenantStore
    let signer: TenantSigner
    let sealer: TenantSealer
    let clock: Clock
    let log: Log
    /// The pages of each language (`DevTenant.languages`), filled from its catalogue.
    let pagesByLanguage: [String: TenantPages]
    /// Attempt limits and used form tickets.
    let guardian = LoginGuard()
    /// The Management API's rate windows (a person's own token) and bucket (machine-to-machine).
    let rateWindows: RateWindows
    let managementBucket: RateBucket
    /// Sends back-channel logout tokens; nil in unit tests that send none.
    let http: (any HTTPClient)?
    /// The language of the request being answered (`en` or `zh`): each request is answered by a
    /// copy of the tenant that carries it, so no answer can speak another request's language.
    var language = "en"
    private let router = DevTenant.makeRouter()

    /// A route of the tenant: answered by the request's own copy of the tenant, which a handler
    /// may change (the language its pages speak).
    typealias Route = @Sendable (inout DevTenant, Request) throws -> Response

    /// The cookie of the tenant's own login session (single sign-on); its name cannot collide
    /// with the product's cookies, which share the browser's jar on the same host.
    static let ssoCookie = "devtenant_sso"

    /// A tenant with `config`, its state and key files loaded (or made), its templates parsed,
    /// sending back-channel logout tokens through `http`.
    public init(config: TenantConfig, clock: Clock = .system, log: Log, http: (any HTTPClient)? = nil) throws {
        self.config = config
        self.http = http
        self.clock = clock
        self.log = log
        store = try TenantStore(config: config, clock: clock)
        rateWindows = RateWindows(clock: clock)
        managementBucket = RateBucket(
            limit: config.managementBurst, perSecond: Double(config.managementRatePerSecond), clock: clock)
        signer = try TenantSigner(keyFile: config.keyFile)
        sealer = TenantSealer(key: try DevTenant.sealingKey(besides: config.keyFile))
        var pagesByLanguage: [String: TenantPages] = [:]
        for language in DevTenant.languages {
            pagesByLanguage[language] = try TenantPages(
                TemplateLibrary(directory: config.templatesDirectory, language: language))
        }
        self.pagesByLanguage = pagesByLanguage
    }

    private static func makeRouter() -> Router<Route> {
        var router = Router<Route>()
        router.add("GET", "/.well-known/openid-configuration") { tenant, _ in tenant.discovery() }
        router.add("GET", "/.well-known/jwks.json") { tenant, _ in
            .json(tenant.signer.jwks(withoutAlg: tenant.config.removesAlgFromJWKS).serialized())
        }
        router.add("GET", "/authorize") { try $0.authorize($1) }
        router.add("POST", "/u/login") { try $0.submitLogin($1) }
        router.add("POST", "/u/consent") { try $0.submitConsent($1) }
        router.add("POST", "/u/mfa") { try $0.submitCode($1) }
        router.add("POST", "/oauth/token") { $0.token($1) }
        router.add("POST", "/oauth/par") { $0.pushAuthorizationRequest($1) }
        router.add("POST", "/oauth/revoke") { $0.revoke($1) }
        router.add("GET", "/userinfo") { $0.userinfo($1) }
        router.add("GET", "/v2/logout") { try $0.logoutV2($1) }
        router.add("GET", "/oidc/logout") { try $0.logoutOIDC($1) }
        router.add("POST", "/oidc/logout/confirm") { try $0.confirmOIDCLogout($1) }
        router.add("GET", "/healthz") { _, _ in .text("ok\n") }
        return router
    }

    /// Answers one request as Auth0 would, with a copy of the tenant that speaks its language.
    public func respond(to request: Request) -> Response {
        var tenant = self
        tenant.speak(request, uiLocales: (try? request.queryParameters())?["ui_locales"])
        return tenant.answer(request)
    }

    private mutating func answer(_ request: Request) -> Response {
        var response: Response
        do {
            if request.path.hasPrefix("/api/v2/users/"), request.path.hasSuffix("/sessions") {
                response = deleteSessions(request)
            } else if request.path.hasPrefix("/api/v2/users/") {
                response = management(request)
            } else if request.path.hasPrefix("/api/v2/") {
                response = administer(request)
            } else if request.path.hasPrefix("/avatars/") {
                response = avatar(request.path)
            } else {
                switch router.match(request) {
                case .handler(let route): response = try route(&self, request)
                case .notFound: response = message(404, "Not found", "The dev tenant has no page here.")
                case .methodNotAllowed(let allow):
                    response = message(405, "Not allowed", "Use \(allow).")
                    response.add("Allow", allow)
                }
            }
        } catch let error as WebError {
            response = message(error.status, "Bad request", DevTenant.sentence(for: error))
        } catch {
            log(.error, "dev tenant failed", ["path": request.path, "error": "\(error)"])
            response = message(500, "Server error", "The dev tenant could not answer.")
        }
        if response.header("Cache-Control") == nil { response.add("Cache-Control", "no-store") }
        if response.header("X-Content-Type-Options") == nil { response.add("X-Content-Type-Options", "nosniff") }
        log(
            .info, "tenant request",
            ["method": request.method, "path": request.path, "status": String(response.status)])
        return response
    }

    /// Answers a request the server refused before reading it (a body over the limit).
    public func respond(to request: Request, rejectedWith error: WebError) -> Response {
        var tenant = self
        tenant.speak(request, uiLocales: nil)
        return tenant.message(error.status, "Too large", DevTenant.sentence(for: error))
    }

    /// What was wrong with a request, in the tenant's own words (`say` translates them).
    static func sentence(for error: WebError) -> String {
        if let why = error.badRequestReason { return "The request could not be understood: \(why.rawValue)." }
        return error.status == 413
            ? "The request is too large." : "The form was sent in a format this site does not accept."
    }

    // MARK: Shared answers

    func message(
        _ status: Int, _ title: String, _ text: String, confirmAction: String? = nil, fields: [(String, String)] = []
    ) -> Response {
        var context: TemplateContext = ["title": .text(say(title)), "message": .text(say(text))]
        if let confirmAction {
            context["confirmAction"] = .text(confirmAction)
            context["fields"] = .list(fields.map { ["name": .text($0.0), "value": .text($0.1)] })
        }
        var response = Response.html(pages.message.render(context), status: status)
        // Its "Log out?" confirmation among them: never inside another site's frame. No
        // form-action: the confirmation's answer redirects to the application, wherever it is.
        response.add("Content-Security-Policy", "default-src 'none'; style-src 'self'; frame-ancestors 'none'")
        response.add("X-Frame-Options", "DENY")
        return response
    }

    /// `redirect_uri` with parameters added to its query.
    static func redirect(_ uri: String, _ pairs: [(String, String)]) -> Response {
        let separator = uri.contains("?") ? "&" : "?"
        return .redirect(to: uri + separator + PercentEncoding.formEncode(pairs))
    }

    /// The response modes `/authorize` honours, as its discovery document lists them (Auth0's).
    static let responseModes = ["query", "fragment", "form_post"]

    /// The answer to the application in the response mode its request asked for: the query
    /// (the default for `code`), the fragment (OAuth 2.0 Multiple Response Type Encoding
    /// Practices), or a form the browser posts to the callback (OAuth 2.0 Form Post Response Mode).
    static func answer(_ uri: String, _ pairs: [(String, String)], mode: String?) -> Response {
        switch mode {
        case "fragment":
            return .redirect(to: uri + "#" + PercentEncoding.formEncode(pairs))
        case "form_post":
            let nonce = Base64URL.encode(SecureRandom.bytes(12))
            let fields = pairs.map {
                "<input type=\"hidden\" name=\"\(HTMLEscaping.escape($0.0))\" value=\"\(HTMLEscaping.escape($0.1))\">"
            }.joined()
            let html =
                "<!doctype html><html><head><title>Submit This Form</title></head><body>"
                + "<form method=\"post\" action=\"\(HTMLEscaping.escape(uri))\">\(fields)"
                + "<noscript><button type=\"submit\">Continue</button></noscript></form>"
                + "<script nonce=\"\(nonce)\">document.forms[0].submit()</script></body></html>"
            var response = Response.html(Array(html.utf8))
            response.add("Cache-Control", "no-store")
            response.add(
                "Content-Security-Policy",
                "default-src 'none'; script-src 'nonce-\(nonce)'; form-action \(URLOrigin.of(uri) ?? "'none'")")
            return response
        default:
            return redirect(uri, pairs)
        }
    }

    func now() -> Double { clock.now() }

    /// The tenant's applications, APIs and other objects the Management API keeps.
    var directory: TenantDirectory { store.directory }

    private static func sealingKey(besides keyFile: String) throws -> [UInt8] {
        let path = keyFile + ".seal"
        if let data = FileManager.default.contents(atPath: path), data.count == 32 { return Array(data) }
        let key = SecureRandom.bytes(32)
        try AtomicFile.write(key, to: path)
        return key
    }

    private func discovery() -> Response {
        let i = config.issuer
        var document: [String: JSONValue] = [
            "issuer": .string(i), "authorization_endpoint": .string(i + "authorize"),
            "token_endpoint": .string(i + "oauth/token"), "userinfo_endpoint": .string(i + "userinfo"),
            "jwks_uri": .string(i + ".well-known/jwks.json"), "revocation_endpoint": .string(i + "oauth/revoke"),
            "response_types_supported": .array(["code"]),
            "response_modes_supported": .array(["query", "fragment", "form_post"]),
            "code_challenge_methods_supported": .array(["S256", "plain"]),
            "id_token_signing_alg_values_supported": .array(["HS256", "RS256", "PS256"]),
            "token_endpoint_auth_methods_supported": .array([
                "client_secret_basic", "client_secret_post", "private_key_jwt",
            ]),
            "scopes_supported": .array([
                "openid", "profile", "offline_access", "name", "nickname", "picture", "email", "email_verified",
            ]),
            "claims_supported": .array([
                "aud", "auth_time", "email", "email_verified", "exp", "iat", "iss", "name", "nickname", "picture",
                "sub",
            ]),
            "subject_types_supported": .array(["public"]),
        ]
        if directory.discoversEndSession { document["end_session_endpoint"] = .string(i + "oidc/logout") }
        if config.allowsDPoP { document["dpop_signing_alg_values_supported"] = .array(["ES256"]) }
        if config.allowsPushedAuthorization {
            document["pushed_authorization_request_endpoint"] = .string(i + "oauth/par")
        }
        return .json(JSONValue.object(document).serialized())
    }

    private func avatar(_ path: String) -> Response {
        let name = path.dropFirst("/avatars/".count)
        guard name.hasSuffix(".svg") else { return message(404, "Not found", "No such avatar.") }
        let letters = String(name.dropLast(4).filter { $0.isASCII && $0.isLetter }.prefix(2)).uppercased()
        let hue = letters.unicodeScalars.reduce(0) { $0 * 31 + Int($1.value) } % 360
        let svg = """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><rect width="100" height="100" \
            fill="hsl(\(hue),55%,45%)"/><text x="50" y="63" font-family="Arial,sans-serif" font-size="40" \
            fill="#fff" text-anchor="middle">\(letters)</text></svg>
            """
        var response = Response(status: 200, headers: [("Content-Type", "image/svg+xml")], body: Array(svg.utf8))
        response.add("Cache-Control", "public, max-age=86400")
        return response
    }
}
