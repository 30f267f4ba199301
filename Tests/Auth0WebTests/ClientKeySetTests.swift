import Auth0Web
import OpenSSLCrypto
import TestSupport
import Testing
import Web

/// Issue 50, item 6: the application's own keys, public halves only, as a key set a provider
/// can fetch by URI, each named by its RFC 7638 thumbprint, the name the assertions carry where
/// the provider reads it (not to Auth0, which takes only the id it gave the credential).
@Suite struct ClientKeySetTests {
    @Test func theThumbprintIsRFC7638s() throws {
        // RFC 7638 §3.1's example key and thumbprint.
        let n =
            "0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECPebWKRXjBZCiFV4n3"
            + "oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0"
            + "zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-"
            + "csFCur-kEgU8awapJzKnqDKgw"
        #expect(
            JWKThumbprint.rsa(modulus: try #require(Base64URL.decode(n)), exponent: [1, 0, 1])
                == "NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs")
    }

    @Test func bothKeysOfARotationArePublishedWithoutTheirPrivateParts() throws {
        let (first, second) = (try RSAPrivateKey(generatingBits: 2048), try RSAPrivateKey(generatingBits: 2048))
        let settings = try RelyingPartySettings(
            environment: TestSettings.environment([
                "CLIENT_ASSERTION_KEY": try first.pem() + second.pem(), "AUTH0_CLIENT_SECRET": nil,
            ]))
        let document = try #require(ClientKeySet(settings: settings).document)
        let keys = try #require(JSONValue.parse(document)?["keys"]?.array)
        #expect(keys.count == 2)
        #expect(keys.map { $0["kid"]?.string } == [ClientKeySet.keyID(of: first), ClientKeySet.keyID(of: second)])
        for key in keys {
            #expect(Set(key.object?.keys ?? [:].keys) == ["kty", "use", "alg", "kid", "n", "e"], "public parts only")
            // Each is a whole public key (OpenSSL reads it).
            let modulus = try #require(key["n"]?.string.flatMap { Base64URL.decode($0) })
            let exponent = try #require(key["e"]?.string.flatMap { Base64URL.decode($0) })
            _ = try RSAPublicKey(modulus: modulus, exponent: exponent)
        }
        #expect(ClientKeySet(settings: TestSettings.auth0).document == nil, "no keys, no set")
    }

    @Test func anAssertionNamesItsKeyOnlyToAProviderThatReadsTheSet() throws {
        let key = try RSAPrivateKey(generatingBits: 2048)
        func assertion(_ changes: [String: String?]) throws -> JWT {
            let settings = try RelyingPartySettings(
                environment: TestSettings.environment(
                    ["CLIENT_ASSERTION_KEY": try key.pem(), "AUTH0_CLIENT_SECRET": nil].merging(changes) { $1 }))
            let provider = ScriptedHTTPClient.json(400, #"{"error":"invalid_grant"}"#)
            _ = try? TokenClient(settings: settings, endpoints: TestSettings.endpoints, http: provider).refresh("r")
            let form = try FormData(urlEncoded: try #require(provider.sent.first).body)
            let sent = try #require(form["client_assertion"])
            return try #require(JWT(sent))
        }
        #expect(try assertion([:]).header["kid"] == nil, "Auth0 takes only the id it gave the credential")
        #expect(try assertion(["OIDC_PROVIDER": "generic"]).header["kid"]?.string == ClientKeySet.keyID(of: key))
    }
}
