import Foundation
import OpenSSLCrypto
import Web

/// The tenant's RS256 key: made on first start and kept in a file, published in the JWKS,
/// signing ID and access tokens and checking access tokens that come back.
final class TenantSigner: Sendable {
    let kid: String
    private let privateKey: RSAPrivateKey
    private let publicKey: RSAPublicKey
    private let modulus: [UInt8]
    private let exponent: [UInt8]

    init(keyFile: String) throws {
        if let data = FileManager.default.contents(atPath: keyFile) {
            privateKey = try RSAPrivateKey(pem: String(decoding: data, as: UTF8.self))
        } else {
            privateKey = try RSAPrivateKey(generatingBits: 2048)
            try AtomicFile.write(Array(try privateKey.pem().utf8), to: keyFile)
        }
        (modulus, exponent) = try privateKey.publicComponents()
        publicKey = try privateKey.publicKey()
        kid = String(Base64URL.encode(SHA256.hash(modulus)).prefix(22))
    }

    /// The JWKS document (`/.well-known/jwks.json`): the key with `alg` RS256, or with none (`withoutAlg`).
    func jwks(withoutAlg: Bool = false) -> JSONValue {
        var key: [String: JSONValue] = [
            "alg": "RS256", "kty": "RSA", "use": "sig", "kid": .string(kid),
            "n": .string(Base64URL.encode(modulus)), "e": .string(Base64URL.encode(exponent)),
        ]
        if withoutAlg { key["alg"] = nil }
        return .object(["keys": .array([.object(key)])])
    }

    /// A signed JWT with `typ: JWT`, `alg: RS256` and this key's `kid`.
    func sign(_ claims: [String: JSONValue]) throws -> String { try sign(claims, as: "RS256", secret: nil) }

    /// A JWT signed as an application's ID tokens are (`jwt_configuration.alg`): RS256 or PS256
    /// with this key (and its `kid`), HS256 with the application's client secret (no `kid`).
    func sign(_ claims: [String: JSONValue], as algorithm: String, secret: String?) throws -> String {
        var header: [String: JSONValue] = ["alg": .string(algorithm), "typ": "JWT"]
        if algorithm != "HS256" { header["kid"] = .string(kid) }
        let signingInput =
            Base64URL.encode(JSONValue.object(header).serialized()) + "."
            + Base64URL.encode(JSONValue.object(claims).serialized())
        let message = Array(signingInput.utf8)
        let signature =
            switch algorithm {
            case "HS256": try HMAC.mac(.sha256, key: Array((secret ?? "").utf8), message: message)
            case "PS256": try privateKey.sign(message, digest: .sha256, pss: true)
            default: try privateKey.signRS256(message)
            }
        return signingInput + "." + Base64URL.encode(signature)
    }

    /// The claims of a token this tenant signed, when the signature holds and it has not expired.
    /// The caller checks the audience.
    func verifyAccessToken(_ token: String, issuer: String, now: Double) -> JSONValue? {
        guard let jws = CompactJWS(token), jws.header["alg"]?.string == "RS256", jws.header["kid"]?.string == kid,
            publicKey.verifyRS256(signature: jws.signature, message: jws.signedPart)
        else { return nil }
        let claims = jws.claims
        guard claims["iss"]?.string == issuer, let exp = claims["exp"]?.number, exp > now else { return nil }
        return claims
    }

    /// The `aud` claim as a list.
    static func audiences(_ claims: JSONValue) -> [String] {
        claims["aud"]?.string.map { [$0] } ?? claims["aud"]?.array?.compactMap(\.string) ?? []
    }
}
