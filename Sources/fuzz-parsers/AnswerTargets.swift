import Auth0Web
import Web

// What the tenant answers to the token endpoint and for its keys, and the session's own byte
// format: answers are read through the product's own clients, over a client that answers with
// the fuzzer's bytes.

/// An HTTP client whose every answer is the given status and body.
private struct CannedAnswer: HTTPClient {
    let status: Int
    let body: [UInt8]
    func send(_ request: HTTPClientRequest) throws -> HTTPClientResponse {
        HTTPClientResponse(status: status, headers: [("content-type", "application/json")], body: body)
    }
}

// swift-format-ignore: NeverUseForceTry
private let settings = try! RelyingPartySettings(environment: [
    "AUTH0_DOMAIN": "tenant.example.com", "AUTH0_CLIENT_ID": "client", "AUTH0_CLIENT_SECRET": "secret",
    "AUTH0_SECRET": "5f0c9e2a7b4d1836e9a0c3f7152b8d4e6a9c0f3e7d2b5a8146e9c3f0a7d2b5e8",
    "APP_BASE_URL": "https://app.example.com",
])
private let endpoints = TenantEndpoints.documented(issuer: "https://tenant.example.com/")

let answerTargets = [
    FuzzTarget(name: "token-response") { input in
        // The first byte picks 200 or an error status; the rest is the body.
        let status = [200, 200, 400, 401, 403, 429, 500, 503][Int(input.first ?? 0) % 8]
        // The settings use a secret: nothing to refuse when the client is made.
        guard
            let client = try? TokenClient(
                settings: settings, endpoints: endpoints,
                http: CannedAnswer(status: status, body: Array(input.dropFirst())))
        else { preconditionFailure("the client of fixed settings could not be made") }
        guard let tokens = try? client.refresh("refresh-token") else { return }
        precondition(status == 200, "a token set from a \(status) answer")
        precondition(!tokens.accessToken.isEmpty, "an empty access token accepted")
        precondition(
            tokens.expiresIn >= 0 && Double(tokens.expiresIn) <= TokenSet.longestLifetime, "expires_in out of range")
    },
    FuzzTarget(name: "jwks") { input in
        let keys = JWKSCache(
            url: endpoints.jwks, http: CannedAnswer(status: 200, body: input), clock: Clock { 1_700_000_000 },
            timeoutSeconds: 1)
        let listed = Set(JSONValue.parse(input)?["keys"]?.array?.compactMap { $0["kid"]?.string } ?? [])
        for kid in ["k1", "", "0"] {
            for algorithm in SigningAlgorithm.allCases where !algorithm.isHMAC {
                let found = (try? keys.candidates(kid: kid, for: algorithm)) ?? []
                precondition(found.isEmpty || listed.contains(kid), "a key for a kid the document does not list")
                precondition(found.count <= 1, "several keys for one kid")
            }
        }
    },
    FuzzTarget(name: "session-bytes") { input in
        // What opened once is written back and opens to the same session.
        guard let session = Session(encoded: input[...]) else { return }
        precondition(Session(encoded: session.encoded()[...]) == session, "the session's bytes do not round-trip")
    },
]
