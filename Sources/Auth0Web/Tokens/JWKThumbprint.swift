public import OpenSSLCrypto
import Web

/// RFC 7638 thumbprints of P-256 public keys: a key's id, the same for everyone who computes it
/// (the identity assertions' `kid`, DPoP's `jkt`).
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
}
