import Auth0Web
import DevTenantKit
import Foundation
import OpenSSLCrypto
import Testing
import Web

/// Issue 41, item 5, as a table over the pure judgement (issue 51, item 6: no stack to read one
/// line): `SECURITY_PROFILE=fapi2` against the dev tenant's own discovery document. With PAR and
/// DPoP allowed, everything but one part holds: Auth0 (as its reference records it, and the dev
/// tenant with it) does not name itself in authorization responses (RFC 9207), which FAPI 2.0
/// requires; without them, each missing part is its own line.
@Suite struct SecurityProfileOnTheDevTenantTests {
    static let folder = NSTemporaryDirectory() + "dev-tenant-fapi2-\(UUID().uuidString.prefix(8))"

    /// The dev tenant's discovery document as a worker discovers it, PAR and DPoP allowed or not.
    private func discovered(allowing: Bool) throws -> TenantEndpoints {
        try FileManager.default.createDirectory(atPath: Self.folder, withIntermediateDirectories: true)
        var text = try String(
            contentsOfFile: DevTenantTests.repoRoot + "/deploy/dev-tenant/tenant.json", encoding: .utf8)
        text =
            "{\"tenant\": {\"allow_pushed_authorization_requests\": \(allowing), \"allow_dpop\": \(allowing)},\n"
            + text.dropFirst()
        let config = Self.folder + "/tenant-\(UUID().uuidString.prefix(8)).json"
        try text.write(toFile: config, atomically: true, encoding: .utf8)
        let tenant = try DevTenantTests.make(["DEV_TENANT_CONFIG": config])
        let answer = tenant.respond(to: Request(method: "GET", path: "/.well-known/openid-configuration"))
        return try TenantEndpoints(
            discovery: try #require(JSONValue.parse(answer.body)), expectedIssuer: "http://127.0.0.1:8081/")
    }

    /// fapi2 settings for the dev tenant: a client key, a DPoP key, PS256 ID tokens.
    private func settings() throws -> RelyingPartySettings {
        try RelyingPartySettings(environment: [
            "AUTH0_DOMAIN": "http://127.0.0.1:8081", "AUTH0_CLIENT_ID": "metadata-demo-dev",
            "AUTH0_SECRET": SecureRandom.bytes(32).map { String(format: "%02x", $0) }.joined(),
            "APP_BASE_URL": "http://127.0.0.1:8080",
            "SECURITY_PROFILE": "fapi2", "ID_TOKEN_SIGNING_ALG": "PS256",
            "CLIENT_ASSERTION_KEY": try RSAPrivateKey(generatingBits: 2048).pem(),
            "DPOP_KEY": try ECPrivateKey().pem(),
        ])
    }

    @Test(arguments: [true, false])
    func fapi2OnTheDevTenantLacksWhatItDoesNotOffer(allowing: Bool) throws {
        let problems = ProviderFit.problems(try settings(), try discovered(allowing: allowing))
        let issuerLine =
            "SECURITY_PROFILE: fapi2 needs the provider to name itself in authorization responses (RFC 9207), "
            + "and its discovery document does not set authorization_response_iss_parameter_supported"
        if allowing {
            #expect(problems == [issuerLine])
        } else {
            #expect(problems.count == 3 && problems.contains(issuerLine), "\(problems)")
            #expect(problems.contains { $0.hasPrefix("PUSHED_AUTHORIZATION_REQUESTS: required") })
            #expect(problems.contains { $0.hasPrefix("DPOP: ") })
        }
    }
}
