import Auth0Web
import Testing
import Web

/// What the product hands a mini app of the provider's answer: only a token whose claims say it
/// is for the app's API, with every scope asked, not expired.
@Suite struct APITokensTests {
    private func token(_ claims: JSONValue) -> String {
        "eyJhbGciOiJSUzI1NiJ9." + Base64URL.encode(claims.serialized()) + ".c2lnbmF0dXJl"
    }

    @Test func onlyATokenForTheAPIWithItsScopesIsHandedOn() {
        let api = "https://api.example/"
        let good = token(
            .object([
                "aud": .string(api), "scope": "read:a read:b", "exp": .number(2_000),
                "permissions": .array(["read:a", "x"]),
            ]))
        #expect(APITokens.checked(good, audience: api, scopes: ["read:a"], now: 1_000)?.permissions == ["read:a", "x"])
        let among = token(
            .object(["aud": .array(["https://other/", .string(api)]), "scope": "read:a", "exp": .number(2_000)]))
        #expect(APITokens.checked(among, audience: api, scopes: ["read:a"], now: 1_000) != nil)
        // Auth0's answer for an API no policy names: the login's own audience, silently.
        let other = token(.object(["aud": "https://tenant/api/v2/", "scope": "read:a", "exp": .number(2_000)]))
        #expect(APITokens.checked(other, audience: api, scopes: [], now: 1_000) == nil)
        #expect(APITokens.checked(good, audience: api, scopes: ["read:a", "write:a"], now: 1_000) == nil)
        #expect(APITokens.checked(good, audience: api, scopes: ["read:a"], now: 2_000) == nil, "expired")
        let endless = token(.object(["aud": .string(api), "scope": "read:a", "exp": .number(1e300)]))
        #expect(APITokens.checked(endless, audience: api, scopes: [], now: 1_000) == nil, "not a sane time")
        #expect(APITokens.checked("opaque-token", audience: api, scopes: [], now: 1_000) == nil)
    }
}
