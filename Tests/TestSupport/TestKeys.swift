import Auth0Web
import Locking
import OpenSSLCrypto
import Web

/// Signs tokens like a tenant and serves its JWKS to the product's HTTP client.
public final class TestKeys: HTTPClient {
    // swift-format-ignore: NeverUseForceTry
    /// One 2048-bit key for the whole suite (making one takes a while).
    public static let shared = try! TestKeys()
    /// The signing key.
    public let key: RSAPrivateKey
    /// Its `kid` in the JWKS and in tokens' headers.
    public let kid = "test-kid"
    private let jwksFetches = Lock(0)

    /// A key of each curve JWS signs with (ES256/384/512, EdDSA), published beside the RSA key.
    public let curveKeys: [SignaturePublicKey.Curve: SignaturePrivateKey]

    /// A new key pair, and a key on each curve.
    public init() throws {
        key = try RSAPrivateKey(generatingBits: 2048)
        var curveKeys: [SignaturePublicKey.Curve: SignaturePrivateKey] = [:]
        for curve in [SignaturePublicKey.Curve.p256, .p384, .p521, .ed25519] {
            curveKeys[curve] = try SignaturePrivateKey(curve: curve)
        }
        self.curveKeys = curveKeys
    }

    /// The `kid` of the key on `curve`.
    public func kid(of curve: SignaturePublicKey.Curve) -> String { kid + "-" + curve.rawValue }

    /// The key on `curve` as a JWK.
    public func jwk(of curve: SignaturePublicKey.Curve) throws -> JSONValue {
        let (x, y) = try curveKeys[curve]!.publicCoordinates()
        var fields: [String: JSONValue] = [
            "kty": curve == .ed25519 ? "OKP" : "EC", "crv": .string(curve.rawValue), "use": "sig",
            "kid": .string(kid(of: curve)), "x": .string(Base64URL.encode(x)),
        ]
        if let y { fields["y"] = .string(Base64URL.encode(y)) }
        return .object(fields)
    }

    /// How many times the JWKS was fetched.
    public var fetches: Int { jwksFetches.withLock { $0 } }

    /// Serves the JWKS; any other address is refused.
    public func send(_ request: HTTPClientRequest) throws -> HTTPClientResponse {
        guard request.url.hasSuffix("/.well-known/jwks.json") else { throw HTTPClientError(.connect, "unexpected") }
        jwksFetches.withLock { $0 += 1 }
        let curves = try [SignaturePublicKey.Curve.p256, .p384, .p521, .ed25519].map { try jwk(of: $0) }
        return HTTPClientResponse(status: 200, body: Self.jwks([try jwk(kid: kid)] + curves).serialized())
    }

    /// The public half of the key as a JWK, with `kid` (none when nil) and `use`.
    public func jwk(kid: String?, use: String = "sig") throws -> JSONValue {
        let (n, e) = try key.publicComponents()
        var fields: [String: JSONValue] = [
            "kty": "RSA", "use": .string(use), "n": .string(Base64URL.encode(n)),
            "e": .string(Base64URL.encode(e)),
        ]
        if let kid { fields["kid"] = .string(kid) }
        return .object(fields)
    }

    /// A JWKS document of `keys`.
    public static func jwks(_ keys: [JSONValue]) -> JSONValue { .object(["keys": .array(keys)]) }

    /// A compact JWT signed with `algorithm`: RSA ones with this key (and its `kid`), HMAC ones
    /// with `secret`.
    public func token(_ algorithm: SigningAlgorithm, secret: String = "", claims: [String: JSONValue]) throws -> String
    {
        var header: [String: JSONValue] = ["alg": .string(algorithm.rawValue), "typ": "JWT"]
        if !algorithm.isHMAC { header["kid"] = .string(algorithm.curve.map(kid(of:)) ?? kid) }
        let input =
            Base64URL.encode(JSONValue.object(header).serialized()) + "."
            + Base64URL.encode(JSONValue.object(claims).serialized())
        let message = Array(input.utf8)
        let signature: [UInt8]
        if algorithm.isHMAC {
            signature = try HMAC.mac(algorithm.digest, key: Array(secret.utf8), message: message)
        } else if let curve = algorithm.curve {
            signature = try curveKeys[curve]!.sign(message, digest: algorithm.digest)
        } else {
            signature = try key.sign(message, digest: algorithm.digest, pss: algorithm.isPSS)
        }
        return input + "." + Base64URL.encode(signature)
    }

    /// A compact JWT with the given header and claims, signed RS256 (or given a signature).
    public func token(header: [String: JSONValue]? = nil, claims: [String: JSONValue], signature: [UInt8]? = nil) throws
        -> String
    {
        let head: JSONValue = .object(header ?? ["alg": "RS256", "typ": "JWT", "kid": .string(kid)])
        let input = Base64URL.encode(head.serialized()) + "." + Base64URL.encode(JSONValue.object(claims).serialized())
        return input + "." + Base64URL.encode(try signature ?? key.signRS256(Array(input.utf8)))
    }
}
