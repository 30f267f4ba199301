import Auth0Web
import OpenSSLCrypto
import TestSupport
import Testing
import Web

/// Issue 41, item 5: `SECURITY_PROFILE=fapi2` turns on and requires PAR, `private_key_jwt`,
/// RFC 9207 and DPoP (PKCE S256 is always sent), and refuses, one line per problem, what cannot.
@Suite struct SecurityProfileTests {
    private static let clientKey = (try? TestKeys.shared.key.pem()) ?? ""
    private static let dpopKey = (try? ECPrivateKey().pem()) ?? ""

    private func problems(_ changes: [String: String?]) -> [String] { TestSettings.problems(changes) }

    @Test func aloneItSaysEverythingThatIsMissing() {
        #expect(
            problems(["SECURITY_PROFILE": "fapi2"]) == [
                "SECURITY_PROFILE: fapi2 authenticates with private_key_jwt: give CLIENT_ASSERTION_KEY",
                "SECURITY_PROFILE: fapi2 takes ID tokens signed PS256, ES256 or EdDSA, not RS256 "
                    + "(ID_TOKEN_SIGNING_ALG, as the application is registered)",
                "SECURITY_PROFILE: fapi2 binds tokens: give DPOP_KEY (`metadata-demo new-dpop-key`)",
            ])
        #expect(
            problems([
                "SECURITY_PROFILE": "fapi2", "CLIENT_ASSERTION_KEY": Self.clientKey, "DPOP_KEY": Self.dpopKey,
                "ID_TOKEN_SIGNING_ALG": "PS256", "DPOP": "off", "PUSHED_AUTHORIZATION_REQUESTS": "off",
            ]) == [
                "SECURITY_PROFILE: fapi2 binds tokens: DPOP cannot be off",
                "SECURITY_PROFILE: fapi2 pushes authorization requests: PUSHED_AUTHORIZATION_REQUESTS cannot be off",
            ])
        #expect(
            problems(["SECURITY_PROFILE": "fapi1"]) == [
                "SECURITY_PROFILE: must be fapi2 or fapi1-advanced, or left out"
            ])
    }

    @Test func withAProviderThatCanItIsAllOn() throws {
        let settings = try RelyingPartySettings(
            environment: TestSettings.environment([
                "SECURITY_PROFILE": "fapi2", "CLIENT_ASSERTION_KEY": Self.clientKey, "DPOP_KEY": Self.dpopKey,
                "ID_TOKEN_SIGNING_ALG": "ES256",
            ]))
        #expect(settings.binding.pushedAuthorization == .required && settings.binding.dpop == .required)
        #expect(settings.client.authentication == .privateKeyJWT)
        let able = try TestSettings.discovered([
            "pushed_authorization_request_endpoint": "https://tenant.example.com/oauth/par",
            "dpop_signing_alg_values_supported": .array(["ES256"]),
            "authorization_response_iss_parameter_supported": .bool(true),
            "code_challenge_methods_supported": .array(["S256"]),
            "id_token_signing_alg_values_supported": .array(["ES256", "PS256"]),
        ])
        let links = try TenantLinks(settings: settings, endpoints: able)
        let fit = ProviderFit.problems(settings, able)
        #expect(fit.isEmpty, "\(fit)")
        #expect(links.pushEndpoint != nil && DPoP.isUsed(settings.binding.dpop, key: settings.binding.dpopKey, able))
        // Auth0 as its reference records it: no iss in the response, no PAR or DPoP listed.
        #expect(
            ProviderFit.problems(settings, TenantEndpoints.documented(issuer: "https://tenant.example.com/"))
                .filter { $0.hasPrefix("SECURITY_PROFILE") || $0.hasPrefix("PUSHED") || $0.hasPrefix("DPOP") }
                .count == 3)
    }
}
