import Locking
import OpenSSLCrypto
import Web

/// Demonstrating Proof of Possession (RFC 9449): the product's own tokens bound to a key every
/// worker shares (`DPOP_KEY`), so a token copied out of a cookie, a log or a proxy is useless
/// without it. An `HTTPClient` in front of the real one: each call to the token, revocation or
/// pushed-request endpoint carries a proof of the key (a `DPoP` header: a JWT signed by it,
/// naming the method and address, made for that one request); each call with an access token
/// presents it as `DPoP` (not `Bearer`) with a proof that names the token's hash too (`ath`).
/// A server that asks for a nonce (`use_dpop_nonce` with a `DPoP-Nonce` header) gets the request
/// again with it, once; the latest nonce of each server is kept for the next proofs.
public final class DPoP: HTTPClient, Sendable {
    private let http: any HTTPClient
    private let key: ECPrivateKey
    private let publicJWK: JSONValue
    private let clock: Clock
    private let nonces = Lock<[String: String]>([:])

    /// Proofs by `key`, for requests sent through `http`, dated by `clock`.
    public init(key: ECPrivateKey, http: any HTTPClient, clock: Clock) throws {
        let (x, y) = try key.publicCoordinates()
        publicJWK = .object([
            "kty": "EC", "crv": "P-256", "x": .string(Base64URL.encode(x)), "y": .string(Base64URL.encode(y)),
        ])
        self.key = key
        self.http = http
        self.clock = clock
    }

    /// Whether tokens are bound with `mode` (`DPOP`: `auto` when the provider lists ES256 among
    /// `dpop_signing_alg_values_supported`), `key` and the provider's `endpoints`.
    public static func isUsed(_ mode: Requirement, key: ECPrivateKey?, _ endpoints: TenantEndpoints) -> Bool {
        guard key != nil else { return false }
        switch mode {
        case .off: return false
        case .required: return true
        case .auto: return endpoints.dpopAlgorithms?.contains("ES256") == true
        }
    }

    /// The client the product's own calls go through for `configuration`: one that proves its
    /// key, or nil when tokens are not bound.
    public static func binding(_ configuration: ClientConfiguration, http: any HTTPClient, clock: Clock) throws -> DPoP?
    {
        guard let key = configuration.dpopKey else { return nil }
        return try DPoP(key: key, http: http, clock: clock)
    }

    /// `mode` and the key on this provider, as start-up problems naming the setting.
    public static func problems(_ mode: Requirement, key: ECPrivateKey?, _ endpoints: TenantEndpoints) -> [String] {
        guard mode == .required else { return [] }
        var problems: [String] = []
        if key == nil {
            problems.append(
                "DPOP_KEY: DPOP is required but no key is given (or DPOP_KEY_FILE, or the systemd credential "
                    + "dpop-key); make one with `metadata-demo new-dpop-key`")
        }
        if endpoints.dpopAlgorithms?.contains("ES256") != true {
            problems.append(
                "DPOP: required, but the provider's discovery document does not list ES256 among "
                    + "dpop_signing_alg_values_supported")
        }
        return problems
    }

    /// Sends `request` with a proof (and its access token as a DPoP one), and again once with
    /// the server's nonce when it asks for one.
    public func send(_ request: HTTPClientRequest) throws -> HTTPClientResponse {
        let server = Self.origin(request.url)
        var response = try http.send(try bound(request, nonce: nonces.withLock { $0[server] }))
        let offered = response.header("dpop-nonce")
        if let offered { nonces.withLock { $0[server] = offered } }
        if let offered, Self.asksForNonce(response) {
            response = try http.send(try bound(request, nonce: offered))
            if let newer = response.header("dpop-nonce") { nonces.withLock { $0[server] = newer } }
        }
        return response
    }

    /// `request` with a new proof; a bearer access token presented as a DPoP one.
    private func bound(_ request: HTTPClientRequest, nonce: String?) throws -> HTTPClientRequest {
        var request = request
        var accessToken: String?
        if let index = request.headers.firstIndex(where: {
            $0.name.lowercased() == "authorization" && $0.value.hasPrefix("Bearer ")
        }) {
            let token = String(request.headers[index].value.dropFirst("Bearer ".count))
            request.headers[index].value = "DPoP " + token
            accessToken = token
        }
        request.headers.removeAll { $0.name.lowercased() == "dpop" }
        request.headers.append(("DPoP", try proof(request.method, request.url, accessToken: accessToken, nonce: nonce)))
        return request
    }

    /// A proof for one request (RFC 9449 §4.2): never used twice, as its `jti` is new.
    func proof(_ method: String, _ url: String, accessToken: String?, nonce: String?) throws -> String {
        let header: JSONValue = .object(["typ": "dpop+jwt", "alg": "ES256", "jwk": publicJWK])
        var claims: [String: JSONValue] = [
            "jti": .string(Base64URL.encode(SecureRandom.bytes(16))), "htm": .string(method),
            "htu": .string(Self.target(url)), "iat": .number(Double(Int64(clock.now()))),
        ]
        if let nonce { claims["nonce"] = .string(nonce) }
        if let accessToken { claims["ath"] = .string(Base64URL.encode(SHA256.hash(Array(accessToken.utf8)))) }
        return try JWT.signed(header: header, claims: .object(claims), by: key.signES256)
    }

    /// True when the answer asks for the request again with the server's nonce: the
    /// authorization server's 400 `use_dpop_nonce`, or a resource server's 401 challenge.
    private static func asksForNonce(_ response: HTTPClientResponse) -> Bool {
        switch response.status {
        case 400: JSONValue.parse(response.body)?["error"]?.string == "use_dpop_nonce"
        case 401: response.header("www-authenticate")?.contains("use_dpop_nonce") == true
        default: false
        }
    }

    /// `url` without its query and fragment (`htu`, RFC 9449 §4.2).
    static func target(_ url: String) -> String {
        String(url.prefix { $0 != "?" && $0 != "#" })
    }

    /// The scheme, host and port of `url`: nonces are the server's.
    private static func origin(_ url: String) -> String {
        guard let start = url.firstRange(of: "://") else { return url }
        return String(url[..<(url[start.upperBound...].firstIndex(of: "/") ?? url.endIndex)])
    }
}
