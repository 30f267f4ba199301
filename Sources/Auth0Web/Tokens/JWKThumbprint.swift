public import OpenSSLCrypto
import Web

/// RFC 7638 thumbprints: a key's id, the same for everyone who computes it (the identity
/// assertions' `kid`, DPoP's `jkt`, the client's own keys' `kid`).
public enum JWKThumbprint {
    /// The thumbprint of the P-256 public key at `x`, `y`.
    public static func p256(x: [UInt8], y: [UInt8]) -> String {
        let canonical =
            #"{"crv":"P-256","kty":"EC","x":""# + Base64URL.encode(x) + #"","y":""# + Base64URL.encode(y) + #""}"#
        return Base64URL.encode(SHA256.hash(Array(canonical.utf8)))
    }

    /// The thumbprint of `key`'s public half, or nil when it cannot be read.
    public static func p256(_ key: ECPrivateKey) -> String? {
        guard let (x, y) = try? key.publicCoordinates() else { return nil }
        return p256(x: x, y: y)
    }

    /// The thumbprint of the RSA public key of `modulus` and `exponent` (big-endian bytes).
    public static func rsa(modulus: [UInt8], exponent: [UInt8]) -> String {
        let canonical =
            #"{"e":""# + Base64URL.encode(exponent) + #"","kty":"RSA","n":""# + Base64URL.encode(modulus) + #""}"#
        return Base64URL.encode(SHA256.hash(Array(canonical.utf8)))
    }
}
