import OpenSSLCrypto
import Web

/// Proof Key for Code Exchange (RFC 7636) with the S256 method.
public enum PKCE {
    /// A new code verifier: 32 random bytes as base64url (43 characters).
    public static func makeVerifier() -> String { Base64URL.encode(SecureRandom.bytes(32)) }

    /// The S256 challenge: base64url(SHA-256(verifier)).
    public static func challenge(for verifier: String) -> String {
        Base64URL.encode(SHA256.hash(Array(verifier.utf8)))
    }

    /// A random token for `state`, `nonce` and CSRF (base64url of 32 bytes).
    public static func randomToken() -> String { Base64URL.encode(SecureRandom.bytes(32)) }
}
