import Auth0Web
import DevTenantKit
import Foundation
import OpenSSLCrypto
import Testing
import Web

/// Issue 50, item 4: the dev tenant takes request objects (JAR) as Auth0's "Authorization Code
/// Flow with JWT-Secured Authorization Requests" and "Configure FAPI Compliance" describe them.
@Suite struct RequestObjectEndpointTests {
    static let folder = NSTemporaryDirectory() + "dev-tenant-jar-\(UUID().uuidString.prefix(8))"
    static let callback = "http://127.0.0.1:8080/callback"
    static let secret = "dev-client-secret-not-for-production-0123456789"
    static let issuer = "http://127.0.0.1:8081/"
    // swift-format-ignore: NeverUseForceTry
    static let key = try! RSAPrivateKey(generatingBits: 2048)
    // swift-format-ignore: NeverUseForceTry
    static let other = try! RSAPrivateKey(generatingBits: 2048)

    /// The dev tenant with PAR allowed, its dev application holding `key` for request objects
    /// (`required` or not) and, with `fapi`, the FAPI client: `key` as its Private Key JWT
    /// credential too, under `fapi1_adv_pkj_par`.
    private func tenant(required: Bool = false, fapi: Bool = false) throws -> DevTenant {
        try FileManager.default.createDirectory(atPath: Self.folder, withIntermediateDirectories: true)
        let base = try String(
            contentsOfFile: DevTenantTests.repoRoot + "/deploy/dev-tenant/tenant.json", encoding: .utf8)
        guard case .object(var document)? = JSONValue.parse(Array(base.utf8)),
            case .array(var clients)? = document["clients"], case .object(var dev)? = clients.first
        else { throw TestFailure() }
        let credential: JSONValue = .array([.object(["pem": .string(try Self.key.publicPEM()), "alg": "PS256"])])
        dev["signed_request_object"] = .object(["required": .bool(required), "credentials": credential])
        if fapi {
            dev["client_secret"] = nil
            dev["client_authentication_methods"] = .object(["private_key_jwt": .object(["credentials": credential])])
            dev["compliance_level"] = "fapi1_adv_pkj_par"
        }
        clients[0] = .object(dev)
        document["clients"] = .array(clients)
        document["tenant"] = .object(["allow_pushed_authorization_requests": .bool(true)])
        let config = Self.folder + "/tenant-\(UUID().uuidString.prefix(8)).json"
        try Data(JSONValue.object(document).serialized()).write(to: URL(fileURLWithPath: config))
        return try DevTenantTests.make(["DEV_TENANT_CONFIG": config])
    }

    private static let parameters: [String: JSONValue] = [
        "response_type": "code", "client_id": "metadata-demo-dev", "redirect_uri": .string(callback),
        "scope": "openid profile", "state": "S", "nonce": "N", "code_challenge": "C", "code_challenge_method": "S256",
    ]

    /// A request object of `parameters` with `changes` (nil removes), signed by `key` with `alg`.
    private func object(
        _ changes: [String: JSONValue?] = [:], key: RSAPrivateKey = key, alg: String = "PS256",
        typ: String = "oauth-authz-req+jwt"
    ) throws -> String {
        let now = Date().timeIntervalSince1970.rounded(.down)
        var claims = Self.parameters.merging([
            "iss": "metadata-demo-dev", "aud": .string(Self.issuer), "nbf": .number(now), "exp": .number(now + 300),
            "jti": .string(UUID().uuidString),
        ]) { $1 }
        for (name, value) in changes { claims[name] = value }
        let algorithm = try #require(SigningAlgorithm(rawValue: alg))
        return try JWT.signed(header: .object(["alg": .string(alg), "typ": .string(typ)]), claims: .object(claims)) {
            try key.sign($0, digest: algorithm.digest, pss: algorithm.isPSS)
        }
    }

    private func authorize(_ tenant: DevTenant, _ query: [(String, String)]) -> (status: Int, text: String) {
        let answer = tenant.respond(
            to: Request(method: "GET", path: "/authorize", query: PercentEncoding.formEncode(query)))
        return (answer.status, String(decoding: answer.body, as: UTF8.self))
    }

    /// The application's Private Key JWT assertion, as at the token endpoint.
    private func assertion() throws -> [(String, String)] {
        let now = Date().timeIntervalSince1970.rounded(.down)
        let claims: JSONValue = .object([
            "iss": "metadata-demo-dev", "sub": "metadata-demo-dev", "aud": .string(Self.issuer),
            "iat": .number(now), "exp": .number(now + 60), "jti": .string(UUID().uuidString),
        ])
        let token = try JWT.signed(header: .object(["alg": "PS256"]), claims: claims) {
            try Self.key.sign($0, digest: .sha256, pss: true)
        }
        return [
            ("client_assertion_type", "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"),
            ("client_assertion", token),
        ]
    }

    @Test func anObjectSignedByTheRegisteredKeyOpensTheLoginAndNothingElseDoes() throws {
        let tenant = try tenant(required: true)
        let opened = authorize(tenant, [("client_id", "metadata-demo-dev"), ("request", try object())])
        #expect(opened.status == 200 && opened.text.contains("action=\"/u/login\""), "\(opened.text.prefix(300))")
        for (why, token) in [
            ("signature", try object(key: Self.other)), ("alg", try object(alg: "RS512")),
            ("aud", try object(["aud": "https://elsewhere.example/"])), ("iss", try object(["iss": "someone-else"])),
            ("exp", try object(["exp": .number(Date().timeIntervalSince1970 - 5)])),
            ("nbf", try object(["nbf": .number(Date().timeIntervalSince1970 + 600)])),
            ("typ", try object(typ: "JOSE")), ("jti", try object(["jti": .string(String(repeating: "j", count: 65))])),
        ] {
            let refused = authorize(tenant, [("client_id", "metadata-demo-dev"), ("request", token)])
            #expect(refused.status == 400 && refused.text.contains("invalid_request_object"), "\(why)")
        }
        // Required: a request without one is refused, the query's parameters unsigned.
        let unsigned = authorize(tenant, Self.parameters.map { ($0.key, $0.value.string ?? "") })
        #expect(unsigned.status == 400 && unsigned.text.contains("JAR"), "\(unsigned.text.prefix(300))")
        // Pushed with the client's secret, the object is the request.
        let pushed = PushedAuthorizationEndpointTests.push(
            tenant, [("client_id", "metadata-demo-dev"), ("client_secret", Self.secret), ("request", try object())])
        #expect(pushed.status == 201, "\(String(describing: pushed.body))")
    }

    /// `fapi1_adv_pkj_par`: PAR always ("Pushed Authorization Requests are required by the
    /// configured compliance level"), a request object always, PS256 only, `nbf` and `exp` given
    /// and within 60 minutes.
    @Test func theFAPILevelRefusesWhatItsRulesForbid() throws {
        let tenant = try tenant(fapi: true)
        let front = tenant.respond(
            to: Request(
                method: "GET", path: "/authorize",
                query: PercentEncoding.formEncode([("client_id", "metadata-demo-dev"), ("request", try object())])))
        let location = front.header("location") ?? ""
        let refusal = try FormData(urlEncoded: Array(String(location.split(separator: "?").last ?? "").utf8))
        #expect(front.status == 302 && refusal["error"] == "invalid_request")
        #expect(
            refusal["error_description"]
                == "Pushed Authorization Requests are required by the configured compliance level")
        let now = Date().timeIntervalSince1970.rounded(.down)
        for (why, token) in [
            ("PS256 only", try object(alg: "RS256")), ("nbf", try object(["nbf": nil])),
            ("exp", try object(["exp": nil])),
            ("old nbf", try object(["nbf": .number(now - 3700), "exp": .number(now + 60)])),
            ("long span", try object(["nbf": .number(now), "exp": .number(now + 3700)])),
        ] {
            let refused = PushedAuthorizationEndpointTests.push(
                tenant, [("client_id", "metadata-demo-dev"), ("request", token)] + (try assertion()))
            #expect(refused.status == 400 && refused.body?["error"] == "invalid_request_object", "\(why)")
        }
        let unsigned = PushedAuthorizationEndpointTests.push(
            tenant,
            [("client_id", "metadata-demo-dev")] + Self.parameters.map { ($0.key, $0.value.string ?? "") }
                + (try assertion()))
        #expect(unsigned.status == 400 && unsigned.body?["error"] == "invalid_request")
        let pushed = PushedAuthorizationEndpointTests.push(
            tenant, [("client_id", "metadata-demo-dev"), ("request", try object())] + (try assertion()))
        #expect(pushed.status == 201, "\(String(describing: pushed.body))")
    }
}

private struct TestFailure: Error {}
