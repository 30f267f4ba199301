import OpenSSLCrypto
import Web

/// One signing key of the provider's published set (JWKS), of a kind JWS signs with: RSA, an
/// ECDSA curve, or Ed25519; and the algorithm it is published for, when it says.
public struct TenantKey: Sendable {
    enum Kind: Sendable {
        case rsa(RSAPublicKey)
        case curve(SignaturePublicKey)
    }

    let kind: Kind
    /// The JWK's `alg`, when it names one: then only that algorithm may use the key.
    let algorithm: String?

    /// The signing key a JWK describes; nil for an encryption key or one of another kind.
    init?(jwk entry: JSONValue) {
        guard entry["use"]?.string ?? "sig" == "sig" else { return nil }
        let bytes = { (name: String) in entry[name]?.string.flatMap(Base64URL.decode) }
        switch entry["kty"]?.string {
        case "RSA":
            guard let n = bytes("n"), let e = bytes("e"), let key = try? RSAPublicKey(modulus: n, exponent: e) else {
                return nil
            }
            kind = .rsa(key)
        case "EC":
            guard let curve = entry["crv"]?.string.flatMap(SignaturePublicKey.Curve.init(rawValue:)),
                curve != .ed25519, let x = bytes("x"), let y = bytes("y"),
                let key = try? SignaturePublicKey(
                    curve: curve, x: Self.fullSize(x, curve.size), y: Self.fullSize(y, curve.size))
            else { return nil }
            kind = .curve(key)
        case "OKP":
            guard entry["crv"]?.string == "Ed25519", let x = bytes("x"), let key = try? SignaturePublicKey(ed25519: x)
            else { return nil }
            kind = .curve(key)
        default:
            return nil
        }
        algorithm = entry["alg"]?.string
    }

    /// `coordinate` with the leading zero bytes RFC 7518 §6.2.1.2 asks for and some providers
    /// leave out (Glewlwyd 2.7 writes a P-521 coordinate whose first byte is zero in 65 bytes);
    /// the point is checked on its curve all the same.
    static func fullSize(_ coordinate: [UInt8], _ size: Int) -> [UInt8] {
        coordinate.count < size ? [UInt8](repeating: 0, count: size - coordinate.count) + coordinate : coordinate
    }

    /// True when a token signed with `algorithm` may have been signed with this key: the key's
    /// kind is the algorithm's (RSA for RS/PS, its curve for ES/EdDSA; never one for HMAC) and,
    /// when the key names its algorithm, it is that one.
    func fits(_ algorithm: SigningAlgorithm) -> Bool {
        if let named = self.algorithm, named != algorithm.rawValue { return false }
        switch kind {
        case .rsa: return !algorithm.isHMAC && algorithm.curve == nil
        case .curve(let key): return algorithm.curve == key.curve
        }
    }

    /// True when `signature` is this key's signature of `message` with `algorithm`.
    func verifies(_ signature: [UInt8], of message: [UInt8], with algorithm: SigningAlgorithm) -> Bool {
        guard fits(algorithm) else { return false }
        switch kind {
        case .rsa(let key):
            return key.verify(signature: signature, message: message, digest: algorithm.digest, pss: algorithm.isPSS)
        case .curve(let key):
            return key.verify(signature: signature, message: message, digest: algorithm.digest)
        }
    }
}
