import Auth0Web
import OpenSSLCrypto
import TestSupport
import Testing
import Web

/// Issue 61, item 1: this application on this provider is resolved once, and each mechanism
/// takes that one answer: whether tokens are bound (and the authorization request names that key
/// exactly then), where requests are pushed, and what each callback is checked for, with no
/// lenient default left to a wiring that forgets it.
@Suite struct ClientConfigurationTests {
    @Test func dpopIsDecidedOnceAndTheLinksFollowThatDecision() throws {
        let key = try ECPrivateKey()
        let bound = try RelyingPartySettings(environment: TestSettings.environment(["DPOP_KEY": try key.pem()]))
        let listed = try TestSettings.discovered(["dpop_signing_alg_values_supported": .array(["ES256"])])
        let transaction = LoginTransaction.begin(returnTo: "/")
        for (endpoints, expected) in [(listed, true), (try TestSettings.discovered(), false)] {
            let client = try ClientConfiguration(settings: bound, endpoints: endpoints)
            #expect((client.dpopKey != nil) == expected)
            let named = TenantLinks(client).authorizationParameters(transaction).contains { $0.0 == "dpop_jkt" }
            #expect(named == expected, "the links name the key exactly when the configuration binds tokens")
        }
        let off = try RelyingPartySettings(
            environment: TestSettings.environment(["DPOP_KEY": try key.pem(), "DPOP": "off"]))
        #expect(try ClientConfiguration(settings: off, endpoints: listed).dpopKey == nil)
    }

    @Test func eachCallbackCheckComesFromTheProviderAndTheProfile() throws {
        let plain = try ClientConfiguration(settings: TestSettings.auth0, endpoints: TestSettings.endpoints)
        #expect(
            plain.callbackChecks
                == CallbackChecks(
                    issuer: TestSettings.endpoints.issuer, issuerAlwaysSent: false, stateHashAlgorithm: .rs256,
                    stateHashRequired: false))
        let naming = try TestSettings.discovered(["authorization_response_iss_parameter_supported": .bool(true)])
        #expect(
            try ClientConfiguration(settings: TestSettings.auth0, endpoints: naming).callbackChecks.issuerAlwaysSent)
        #expect(plain.pushEndpoint == nil && plain.credentials.method == .post)
    }
}
