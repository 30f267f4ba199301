import Auth0Web
import Foundation
import MetadataDemoApp
import Web

/// `session-bench logout-tokens`: what a refused logout token costs the worker, posted to
/// `/backchannel-logout` through the product's responder: a forged small one (header, key
/// lookup, one RSA signature check), one of 60 KB of small JSON objects (the fifth review's: it
/// cost ~35 ms when every claim was parsed first), one just under the logout token's limit made
/// of small objects, and one whose header is as long as a header may be, of small objects, or of one string.
/// Prints microseconds per request for each, and how many times the small one's each costs.
func logoutTokensBench(services: AppServices, app: MetadataDemo, iterations: Int) {
    let header = ["alg": JSONValue.string("RS256"), "kid": .string(BenchJWKS.kid)]
    func token(header: [String: JSONValue], claims: [String: JSONValue]) -> String {
        Base64URL.encode(JSONValue.object(header).serialized()) + "."
            + Base64URL.encode(JSONValue.object(claims).serialized()) + "."
            + Base64URL.encode(Array(repeating: 7, count: 256))
    }
    let now = JSONValue.number(Clock.system.now().rounded(.down))
    let claims: [String: JSONValue] = [
        "iss": .string(services.settings.issuer), "aud": "bench", "iat": now, "exp": now, "jti": "j", "sid": "s",
        "events": .object([LogoutTokenVerifier.event: .object([:])]),
    ]
    func heavy(_ count: Int) -> [String: JSONValue] { ["x": .array(Array(repeating: .object([:]), count: count))] }
    var largeHeader = header
    largeHeader["x"] = .array(Array(repeating: .object([:]), count: 1 + (CompactJWS.longestHeader * 3 / 4 - 60) / 3))
    var longString = header
    longString["x"] = .string(String(repeating: "x", count: CompactJWS.longestHeader * 3 / 4 - 60))
    let cases: [(String, String)] = [
        ("forged small", token(header: header, claims: claims)),
        ("60 KB of objects", token(header: header, claims: heavy(20_000))),
        ("under the limit, of objects", token(header: header, claims: heavy(1_900))),
        ("longest header, of objects", token(header: largeHeader, claims: claims)),
        ("longest header, one string", token(header: longString, claims: claims)),
    ]
    var figures: [(String, Int, Double)] = []
    for (name, value) in cases {
        let request = Request(
            method: "POST", path: "/backchannel-logout",
            headers: ["content-type": "application/x-www-form-urlencoded"],
            body: Array(("logout_token=" + value).utf8))
        precondition(app.respond(to: request).status == 400, "\(name): not refused")
        let start = ContinuousClock.now
        for _ in 0..<iterations { _ = app.respond(to: request) }
        figures.append((name, value.utf8.count, micros(ContinuousClock.now - start) / Double(iterations)))
    }
    let small = figures[0].2
    print(
        "refused logout tokens: "
            + figures.map { String(format: "%@ (%d bytes) %.1f us (%.1fx)", $0.0, $0.1, $0.2, $0.2 / small) }
            .joined(separator: ", "))
}

/// The tenant's key set for the bench: one RSA key whose public numbers are made up (every
/// token here is forged, so no private half is needed; the signature check runs in full).
struct BenchJWKS: HTTPClient {
    static let kid = "bench-key"

    func send(_ request: HTTPClientRequest) throws -> HTTPClientResponse {
        guard request.url.hasSuffix("/.well-known/jwks.json") else {
            fatalError("the bench called \(request.url)")
        }
        let modulus = [UInt8(0xC3)] + (1..<255).map { UInt8(truncatingIfNeeded: $0 &* 37) } + [0x01]
        let key = JSONValue.object([
            "kty": "RSA", "kid": .string(Self.kid), "alg": "RS256", "use": "sig",
            "n": .string(Base64URL.encode(modulus)), "e": "AQAB",
        ])
        return HTTPClientResponse(status: 200, body: JSONValue.object(["keys": .array([key])]).serialized())
    }
}
