import Auth0Web
import Testing
import Web

/// What the set-up command asks of each field: met or not by the document alone, and made so by
/// changing only that field, a list gaining only what it lacks and keeping what else is there.
@Suite struct FieldNeedTests {
    let document: [String: JSONValue] = [
        "callbacks": .array(["https://other.example/cb"]),
        "refresh_token": .object([
            "rotation_type": "non-rotating",
            "policies": .array([.object(["audience": "https://a.example/", "scope": .array(["read:a"])])]),
        ]),
        "token_endpoint_auth_method": "client_secret_basic",
    ]

    @Test func aValueIsSaidFromWhatItIsToWhatItMustBe() {
        let rotation = FieldNeed.value(["refresh_token", "rotation_type"], "rotating")
        #expect(rotation.shortfall(in: .object(document)) == "refresh_token.rotation_type: non-rotating -> rotating")
        let met = rotation.met(in: document)
        #expect(rotation.shortfall(in: .object(met)) == nil)
        #expect(met["refresh_token"]?["policies"] == document["refresh_token"]?["policies"], "its siblings kept")
        let cleared = FieldNeed.value(["token_endpoint_auth_method"], .null)
        #expect(
            cleared.shortfall(in: .object(document)) == "token_endpoint_auth_method: client_secret_basic -> (not set)")
        #expect(cleared.shortfall(in: .object([:])) == nil, "an absent field is null")
        #expect(FieldNeed.value(["name"], "x").shortfall(in: .object([:])) == "name: (not set) -> x")
    }

    @Test func aListGainsOnlyWhatItLacksAndKeepsTheRest() {
        let callbacks = FieldNeed.includes(["callbacks"], ["https://site.example/callback"])
        #expect(callbacks.shortfall(in: .object(document)) == "callbacks lack https://site.example/callback")
        let met = callbacks.met(in: document)
        #expect(met["callbacks"] == .array(["https://other.example/cb", "https://site.example/callback"]))
        #expect(callbacks.shortfall(in: .object(met)) == nil)
        #expect(callbacks.met(in: met) == met, "a second time changes nothing")
    }

    @Test func objectsAreFoundByTheirKeyAndGainTheirMissingItems() {
        let policies = FieldNeed.includes(
            ["refresh_token", "policies"],
            [
                .object(["audience": "https://a.example/", "scope": .array(["read:a", "write:a"])]),
                .object(["audience": "https://b.example/", "scope": .array(["read:b"])]),
            ], key: "audience")
        #expect(
            policies.shortfall(in: .object(document))
                == "refresh_token.policies lack a policy for https://a.example/, a policy for https://b.example/")
        let met = policies.met(in: document)
        let list = met["refresh_token"]?["policies"]?.array ?? []
        #expect(list.count == 2)
        #expect(list.first?["scope"] == .array(["read:a", "write:a"]))
        #expect(met["refresh_token"]?["rotation_type"] == "non-rotating")
        #expect(policies.shortfall(in: .object(met)) == nil)
        #expect(policies.field == "refresh_token.policies")
    }
}
