import Auth0Web
import DevTenantKit
import Foundation
import OpenSSLCrypto
import Testing
import Web

/// Issue 41, item 3: the dev tenant's `/oauth/par` and `/authorize?request_uri=` as Auth0 documents
/// them (RFC 9126): a pushed request opens Universal Login once, for its own application, within
/// thirty seconds; an application that requires them is refused a request in the query.
@Suite struct PushedAuthorizationEndpointTests {
    static let repoRoot = DevTenantTests.repoRoot
    static let folder = NSTemporaryDirectory() + "dev-tenant-par-\(UUID().uuidString.prefix(8))"
    static let callback = "http://127.0.0.1:8080/callback"
    static let secret = "dev-client-secret-not-for-production-0123456789"

    /// The dev tenant with PAR allowed (and required of the dev application when `required`).
    private func tenant(allowed: Bool = true, required: Bool = false, dpop: Bool = false) throws -> DevTenant {
        try FileManager.default.createDirectory(atPath: Self.folder, withIntermediateDirectories: true)
        var text = try String(contentsOfFile: Self.repoRoot + "/deploy/dev-tenant/tenant.json", encoding: .utf8)
        text =
            "{\"tenant\": {\"allow_pushed_authorization_requests\": \(allowed), \"allow_dpop\": \(dpop)},\n"
            + text.dropFirst()
        if required {
            text = text.replacingOccurrences(
                of: #""client_id": "metadata-demo-dev","#,
                with: #""client_id": "metadata-demo-dev", "require_pushed_authorization_requests": true,"#)
        }
        let config = Self.folder + "/tenant-\(UUID().uuidString.prefix(8)).json"
        try text.write(toFile: config, atomically: true, encoding: .utf8)
        return try DevTenantTests.make(["DEV_TENANT_CONFIG": config])
    }

    private static let request = [
        ("response_type", "code"), ("client_id", "metadata-demo-dev"), ("redirect_uri", callback),
        ("scope", "openid profile"), ("state", "S"), ("nonce", "N"), ("code_challenge", "C"),
        ("code_challenge_method", "S256"),
    ]

    /// `/oauth/par` of `tenant` posted `form`: its status and JSON body.
    static func push(_ tenant: DevTenant, _ form: [(String, String)]) -> (status: Int, body: JSONValue?) {
        let response = tenant.respond(
            to: Request(
                method: "POST", path: "/oauth/par", headers: ["content-type": "application/x-www-form-urlencoded"],
                body: Array(PercentEncoding.formEncode(form).utf8)))
        return (response.status, JSONValue.parse(response.body))
    }

    private func authorize(_ tenant: DevTenant, _ query: [(String, String)]) -> Response {
        tenant.respond(to: Request(method: "GET", path: "/authorize", query: PercentEncoding.formEncode(query)))
    }

    /// Issue 50, item 1: as a strict provider, the tenant refuses a parameter given twice (RFC
    /// 6749 §3.1, §3.2) at the pushed-request, token and authorization endpoints alike.
    @Test func aParameterGivenTwiceIsRefusedAtEveryEndpoint() throws {
        let tenant = try tenant()
        let twice = Self.push(
            tenant, Self.request + [("client_id", "metadata-demo-dev"), ("client_secret", Self.secret)])
        #expect(twice.status == 400 && twice.body?["error"] == "invalid_request")
        #expect(twice.body?["error_description"]?.string?.contains("client_id") == true)
        #expect(Self.push(tenant, Self.request + [("client_secret", Self.secret)]).status == 201, "the same, once each")
        let token = tenant.respond(
            to: Request(
                method: "POST", path: "/oauth/token", headers: ["content-type": "application/x-www-form-urlencoded"],
                body: Array(
                    PercentEncoding.formEncode([
                        ("grant_type", "refresh_token"), ("refresh_token", "r"), ("refresh_token", "r"),
                        ("client_id", "metadata-demo-dev"), ("client_secret", Self.secret),
                    ]).utf8)))
        #expect(token.status == 400 && JSONValue.parse(token.body)?["error"] == "invalid_request")
        let page = authorize(tenant, Self.request + [("state", "again")])
        #expect(page.status == 400 && String(decoding: page.body, as: UTF8.self).contains("state"))
    }

    /// Issue 50, item 7: a push with a DPoP proof binds the code to the proof's key (RFC 9449
    /// §10.1); a `dpop_jkt` naming another key is refused. The proofs are the product's own
    /// (`DPoP`, in front of the tenant answering in-process).
    @Test func aPushWithAProofMustNameItsKeyIfItNamesOne() throws {
        let tenant = try tenant(dpop: true)
        let key = try ECPrivateKey()
        let proving = try DPoP(key: key, http: InProcessTenant(tenant: tenant), clock: .system)
        func push(_ extra: [(String, String)]) throws -> (status: Int, body: JSONValue?) {
            let answer = try proving.send(
                HTTPClientRequest(
                    method: "POST", url: "http://127.0.0.1:8081/oauth/par",
                    headers: [("Content-Type", "application/x-www-form-urlencoded")],
                    body: Array(
                        PercentEncoding.formEncode(Self.request + extra + [("client_secret", Self.secret)]).utf8)))
            return (answer.status, JSONValue.parse(answer.body))
        }
        let other = try #require(JWKThumbprint.p256(try ECPrivateKey()))
        let refused = try push([("dpop_jkt", other)])
        #expect(refused.status == 400 && refused.body?["error"] == "invalid_dpop_proof")
        #expect(try push([("dpop_jkt", try #require(JWKThumbprint.p256(key)))]).status == 201)
        #expect(try push([]).status == 201, "the proof alone binds the code")
    }

    @Test func aPushedRequestOpensUniversalLoginOnceForItsOwnApplication() throws {
        let tenant = try tenant()
        let pushed = Self.push(tenant, Self.request + [("client_secret", Self.secret)])
        #expect(pushed.status == 201)
        let uri = try #require(pushed.body?["request_uri"]?.string)
        #expect(uri.hasPrefix("urn:ietf:params:oauth:request_uri:") && pushed.body?["expires_in"] == .number(30))
        let other = authorize(tenant, [("client_id", "metadata-demo-hs256"), ("request_uri", uri)])
        #expect(other.status == 400, "another application's reference")
        let again = try #require(
            Self.push(tenant, Self.request + [("client_secret", Self.secret)]).body?["request_uri"])
        let page = authorize(tenant, [("client_id", "metadata-demo-dev"), ("request_uri", again.string ?? "")])
        #expect(page.status == 200 && String(decoding: page.body, as: UTF8.self).contains("id=\"password\""))
        let reused = authorize(tenant, [("client_id", "metadata-demo-dev"), ("request_uri", again.string ?? "")])
        #expect(reused.status == 400 && String(decoding: reused.body, as: UTF8.self).contains("invalid_request_uri"))
    }

    @Test func thePushIsAuthenticatedAndChecked() throws {
        let tenant = try tenant()
        #expect(Self.push(tenant, Self.request + [("client_secret", "wrong")]).status == 401)
        #expect(Self.push(tenant, Self.request).status == 401, "no credentials")
        let nested = Self.push(tenant, Self.request + [("client_secret", Self.secret), ("request_uri", "urn:x")])
        #expect(nested.status == 400 && nested.body?["error"] == "invalid_request")
        var elsewhere = Self.request.filter { $0.0 != "redirect_uri" }
        elsewhere.append(("redirect_uri", "https://attacker.example/cb"))
        #expect(Self.push(tenant, elsewhere + [("client_secret", Self.secret)]).status == 400)
        let off = try self.tenant(allowed: false)
        #expect(Self.push(off, Self.request + [("client_secret", Self.secret)]).status == 403)
        let document = off.respond(to: Request(method: "GET", path: "/.well-known/openid-configuration"))
        #expect(JSONValue.parse(document.body)?["pushed_authorization_request_endpoint"] == nil)
        let listed = tenant.respond(to: Request(method: "GET", path: "/.well-known/openid-configuration"))
        #expect(
            JSONValue.parse(listed.body)?["pushed_authorization_request_endpoint"]
                == "http://127.0.0.1:8081/oauth/par")
    }

    @Test func anApplicationThatRequiresThemIsRefusedARequestInTheQuery() throws {
        let tenant = try tenant(required: true)
        let refused = authorize(tenant, Self.request)
        let location = try #require(refused.header("location"))
        #expect(location.hasPrefix(Self.callback + "?error=invalid_request&"), "\(location)")
        #expect(location.contains("state=S"))
        #expect(throws: (any Error).self) { try self.tenant(allowed: false, required: true) }
    }
}

/// The dev tenant answering in-process, as an `HTTPClient` (the product's DPoP client in front).
private struct InProcessTenant: HTTPClient {
    let tenant: DevTenant

    func send(_ request: HTTPClientRequest) throws -> HTTPClientResponse {
        let url = try #require(URLComponents(string: request.url))
        var headers: [String: String] = [:]
        for (name, value) in request.headers { headers[name.lowercased()] = value }
        let answer = tenant.respond(
            to: Request(
                method: request.method, path: url.path, query: url.query ?? "", headers: HeaderFields(headers),
                body: request.body))
        return HTTPClientResponse(status: answer.status, headers: answer.headers, body: answer.body)
    }
}
