internal import COpenSSL

/// An ECDSA P-256 private key that signs ES256 (the product's identity assertions for sibling
/// apps): a signature costs tens of microseconds, against about a millisecond for RSA-2048.
/// - SeeAlso: `EVP_PKEY_CTX_set_group_name`, `EVP_DigestSign`, `d2i_ECDSA_SIG`.
public final class ECPrivateKey: @unchecked Sendable {
    private let key: OpaquePointer

    /// Generates a new P-256 key.
    public init() throws {
        guard let context = EVP_PKEY_CTX_new_from_name(nil, "EC", nil) else { throw CryptoError("EVP_PKEY_CTX_new") }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        guard EVP_PKEY_keygen_init(context) == 1, EVP_PKEY_CTX_set_group_name(context, "P-256") == 1,
            EVP_PKEY_generate(context, &key) == 1, let key
        else { throw CryptoError("EC key generation") }
        self.key = key
    }

    /// Reads a PEM private key (PKCS #8 or SEC 1); anything but a P-256 key is refused.
    public init(pem: String) throws {
        let key = PrivateKeyPEM.read(pem)
        guard let key else { throw CryptoError("PEM_read_bio_PrivateKey") }
        var group = [CChar](repeating: 0, count: 32)
        var length = 0
        guard EVP_PKEY_is_a(key, "EC") == 1,
            EVP_PKEY_get_utf8_string_param(key, COpenSSL_PKEY_PARAM_GROUP_NAME, &group, group.count, &length) == 1,
            ["prime256v1", "P-256"].contains(
                String(decoding: group.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self))
        else {
            EVP_PKEY_free(key)
            throw CryptoError.notP256
        }
        self.key = key
    }

    deinit { EVP_PKEY_free(key) }

    /// The key as unencrypted PKCS #8 PEM text.
    public func pem() throws -> String { try PrivateKeyPEM.write(key) }

    /// The public point's coordinates, 32 big-endian bytes each (a JWK's `x` and `y`).
    public func publicCoordinates() throws -> (x: [UInt8], y: [UInt8]) {
        (try coordinate(COpenSSL_PKEY_PARAM_EC_PUB_X), try coordinate(COpenSSL_PKEY_PARAM_EC_PUB_Y))
    }

    /// An ECDSA SHA-256 signature of `message` as JWS wants it (RFC 7518 3.4): `r` then `s`, 32
    /// bytes each, not OpenSSL's DER.
    public func signES256(_ message: [UInt8]) throws -> [UInt8] {
        try SignaturePrivateKey.raw(der: try PrivateKeyPEM.signSHA256(key, message), half: 32)
    }

    private func coordinate(_ name: UnsafePointer<CChar>) throws -> [UInt8] {
        var number: OpaquePointer?
        guard EVP_PKEY_get_bn_param(key, name, &number) == 1, let number else {
            throw CryptoError("EVP_PKEY_get_bn_param")
        }
        defer { BN_free(number) }
        var bytes = [UInt8](repeating: 0, count: 32)
        guard BN_bn2binpad(number, &bytes, 32) == 32 else { throw CryptoError("BN_bn2binpad") }
        return bytes
    }
}
