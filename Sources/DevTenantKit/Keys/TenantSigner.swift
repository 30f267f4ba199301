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

    /// The JWKS document (`/.well-known/jwks.json`).
    var jwks: JSONValue {
        .object([
            "keys": .array([
                .object([
                    "alg": "RS256", "kty": "RSA", "use": "sig", "kid": .string(kid),
                    "n": .string(Base64URL.encode(modulus)), "e": .string(Base64URL.encode(exponent)),
                ])
            ])
        ])
    }

    /// A signed JWT with `typ: JWT`, `alg: RS256` and this key's `kid`.
    func sign(_ claims: [String: JSONValue]) throws -> String {
        let header: JSONValue = .object(["alg": "RS256", "typ": "JWT", "kid": .string(kid)])
        let signingInput =
            Base64URL.encode(header.serialized()) + "." + Base64URL.encode(JSONValue.object(claims).serialized())
        let signature = try privateKey.signRS256(Array(signingInput.utf8))
        return signingInput + "." + Base64URL.encode(signature)
    }

    /// The claims of a token this tenant signed, when the signature holds and it has not expired.
    /// The caller checks the audience.
    func verifyAccessToken(_ token: String, issuer: String, now: Double) -> JSONValue? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let headerBytes = Base64URL.decode(parts[0]),
            let header = JSONValue.parse(headerBytes), header["alg"]?.string == "RS256", header["kid"]?.string == kid,
            let claimBytes = Base64URL.decode(parts[1]), let claims = JSONValue.parse(claimBytes),
            let signature = Base64URL.decode(parts[2]),
            publicKey.verifyRS256(signature: signature, message: Array("\(parts[0]).\(parts[1])".utf8))
        else { return nil }
        guard claims["iss"]?.string == issuer, let exp = claims["exp"]?.number, exp > now else { return nil }
        return claims
    }

    /// The `aud` claim as a list.
    static func audiences(_ claims: JSONValue) -> [String] {
        claims["aud"]?.string.map { [$0] } ?? claims["aud"]?.array?.compactMap(\.string) ?? []
    }
}
