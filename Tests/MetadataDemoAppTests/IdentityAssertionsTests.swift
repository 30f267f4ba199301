import Auth0Web
import Foundation
import OpenSSLCrypto
import TestSupport
import Testing
import Web

@testable import MetadataDemoApp

/// The identity assertions sibling apps verify: what they say, which key signs them, how long
/// one is kept, and the settings that turn them on. (A verifier nobody here wrote, PyJWT,
/// checks the signatures in the integration tests.)
@Suite struct IdentityAssertionsTests {
    let profile = Session.Profile(
        sub: "auth0|1", name: "Skippy", email: "skippy@example.com", emailVerified: true, picture: "", updatedAt: "")

    private func session(csrf: String = "login-one") -> Session {
        Session(
            profile: profile, accessToken: nil, refreshToken: nil, tenantSessionID: nil, csrfToken: csrf,
            createdAt: 1_700_000_000)
    }

    private func claims(_ token: String) throws -> JSONValue {
        let parts = token.split(separator: ".")
        try #require(parts.count == 3)
        let payload = try #require(Base64URL.decode(parts[1]))
        return try #require(JSONValue.parse(payload))
    }

    private func header(_ token: String) throws -> JSONValue {
        let encoded = try #require(token.split(separator: ".").first)
        let bytes = try #require(Base64URL.decode(encoded))
        return try #require(JSONValue.parse(bytes))
    }

    @Test func anAssertionNamesThePersonTheSiteAndTheSiblingForAMinute() throws {
        let time = ManualClock()
        let assertions = try #require(
            try IdentityAssertions(
                keys: [try ECPrivateKey()], baseURL: "https://demo.example.com", audience: "https://mini.example.com/",
                clock: time.clock))
        let token = try assertions.assertion(for: session())
        let said = try claims(token)
        #expect(
            said["iss"]?.string == "https://demo.example.com/" && said["aud"]?.string == "https://mini.example.com/")
        #expect(said["sub"]?.string == "auth0|1" && said["email"]?.string == "skippy@example.com")
        #expect(said["name"]?.string == "Skippy")
        #expect(said["iat"]?.number == 1_700_000_000 && said["exp"]?.number == 1_700_000_060)
        #expect(try header(token)["alg"]?.string == "ES256")
        #expect(
            token.split(separator: ".").last.flatMap { Base64URL.decode($0) }?.count == 64, "r and s, 32 bytes each")
    }

    /// Review 3, smaller: one assertion was reused for half a minute and said nothing of the
    /// login, so a copy taken before a logout stayed good. Each is now signed for one moment (half a second: issue 49),
    /// with an id of its own (`jti`) and the login's public id (`sid`).
    @Test func eachAssertionHasItsOwnIDAndNamesItsLogin() throws {
        let time = ManualClock()
        let assertions = try #require(
            try IdentityAssertions(
                keys: [try ECPrivateKey()], baseURL: "https://d.example", audience: "a", clock: time.clock))
        let first = try claims(try assertions.assertion(for: session()))
        time.advance(IdentityAssertions.reuseSeconds)
        let second = try claims(try assertions.assertion(for: session()))
        let ids = [first["jti"]?.string, second["jti"]?.string].compactMap { $0 }
        #expect(ids.count == 2 && ids[0] != ids[1] && ids.allSatisfy { Base64URL.decode($0)?.count == 16 })
        #expect(first["sid"]?.string == session().publicID && second["sid"]?.string == session().publicID)
        let other = try claims(try assertions.assertion(for: session(csrf: "login-two")))
        #expect(other["sid"]?.string == session(csrf: "login-two").publicID && other["sid"] != first["sid"])
        var renamed = session()
        renamed.profile.name = "Skippy the Kangaroo"
        #expect(try claims(try assertions.assertion(for: renamed))["name"]?.string == "Skippy the Kangaroo")
    }

    /// Issue 49: a mini app's page and what it brings pass the check within moments; they share
    /// one signature for the same login, person and audience, for half a second at most.
    @Test func oneAssertionServesAMomentOfOneLoginsRequestsToOneSibling() throws {
        let time = ManualClock()
        let assertions = try #require(
            try IdentityAssertions(
                keys: [try ECPrivateKey()], baseURL: "https://d.example", audience: "a", clock: time.clock))
        let first = try assertions.assertion(for: session())
        time.advance(IdentityAssertions.reuseSeconds / 2)
        #expect(try assertions.assertion(for: session()) == first)
        #expect(try assertions.assertion(for: session(), audience: "b") != first, "another sibling")
        #expect(try assertions.assertion(for: session(csrf: "login-two")) != first, "another login")
        var renamed = session()
        renamed.profile.name = "Skippy the Kangaroo"
        #expect(try assertions.assertion(for: renamed) != first, "what it says changed")
        time.advance(IdentityAssertions.reuseSeconds / 2)
        #expect(try assertions.assertion(for: session()) != first, "signed again")
        #expect(IdentityAssertions.reuseSeconds < IdentityAssertions.acceptSeconds)
    }

    @Test func theFirstKeySignsAndEveryKeyIsPublished() throws {
        let (new, old) = (try ECPrivateKey(), try ECPrivateKey())
        let assertions = try #require(
            try IdentityAssertions(keys: [new, old], baseURL: "https://d.example", audience: "a", clock: .system))
        let keys = try #require(JSONValue.parse(assertions.keySet)?["keys"]?.array)
        let ids = keys.compactMap { $0["kid"]?.string }
        let (x, y) = try new.publicCoordinates()
        #expect(ids.count == 2 && ids[0] == JWKThumbprint.p256(x: x, y: y))
        #expect(try header(try assertions.assertion(for: session()))["kid"]?.string == ids[0])
        #expect(keys.allSatisfy { $0["d"] == nil && $0["alg"]?.string == "ES256" && $0["use"]?.string == "sig" })
    }

    /// RFC 7638: the SHA-256 of the required members in order, without spaces; the digest was
    /// worked out outside the code (`printf '{"crv":"P-256","kty":"EC","x":"AQEB…","y":"AgIC…"}' |
    /// openssl dgst -sha256 -binary | basenc --base64url`).
    @Test func theKeyIDIsTheRFC7638Thumbprint() {
        let x = [UInt8](repeating: 1, count: 32)
        let y = [UInt8](repeating: 2, count: 32)
        #expect(JWKThumbprint.p256(x: x, y: y) == "kOFKxjJdOqJD5G4Yuw-cxHe64VGyxKEO_hoV83QfGj0")
    }

    @Test func noKeyMeansNoAssertions() throws {
        #expect(try IdentityAssertions(keys: [], baseURL: "https://d.example", audience: "a", clock: .system) == nil)
    }

    @Test func settingsReadEveryKeyAndNameABadOne() throws {
        let (first, second) = (try ECPrivateKey().pem(), try ECPrivateKey().pem())
        var environment = TestSettings.environment
        environment["ASSERTION_KEY"] = first + second
        let settings = try RelyingPartySettings(environment: environment)
        #expect(settings.assertions.keys.count == 2)
        #expect(settings.assertions.audience == settings.baseURL + "/mini/")
        environment["ASSERTION_KEY"] = first + (try RSAPrivateKey(generatingBits: 2048).pem())
        #expect {
            try RelyingPartySettings(environment: environment)
        } throws: { error in
            "\(error)".contains("ASSERTION_KEY: PEM block 2 is not an EC P-256 private key")
        }
        environment["ASSERTION_KEY"] = nil
        #expect(try RelyingPartySettings(environment: environment).assertions.keys.isEmpty)
    }
}
