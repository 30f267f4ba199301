internal import COpenSSL

/// An RSA private key that signs RS256 (the dev tenant's token signing key).
/// - SeeAlso: `EVP_PKEY_generate`, `PEM_write_bio_PrivateKey`, `EVP_DigestSign`.
public final class RSAPrivateKey: @unchecked Sendable {
    let key: OpaquePointer

    /// Generates a new key.
    public init(generatingBits bits: Int = 2048) throws {
        guard let context = EVP_PKEY_CTX_new_from_name(nil, "RSA", nil) else { throw CryptoError("EVP_PKEY_CTX_new") }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        guard EVP_PKEY_keygen_init(context) == 1, COpenSSL_set_rsa_keygen_bits(context, Int32(bits)) == 1,
            EVP_PKEY_generate(context, &key) == 1, let key
        else { throw CryptoError("RSA key generation") }
        self.key = key
    }

    /// Reads a PEM private key.
    public init(pem: String) throws {
        guard let key = PrivateKeyPEM.read(pem) else { throw CryptoError("PEM_read_bio_PrivateKey") }
        self.key = key
    }

    deinit { EVP_PKEY_free(key) }

    /// The key as unencrypted PKCS #8 PEM text.
    public func pem() throws -> String { try PrivateKeyPEM.write(key) }

    /// The public half as PEM text (SubjectPublicKeyInfo), as a provider registers it.
    public func publicPEM() throws -> String {
        try PrivateKeyPEM.text("PEM_write_bio_PUBKEY") { PEM_write_bio_PUBKEY($0, key) }
    }

    /// The public modulus and exponent as big-endian bytes (for a JWK).
    public func publicComponents() throws -> (modulus: [UInt8], exponent: [UInt8]) {
        (try component(COpenSSL_PKEY_PARAM_RSA_N), try component(COpenSSL_PKEY_PARAM_RSA_E))
    }

    /// The matching public key.
    public func publicKey() throws -> RSAPublicKey {
        let (n, e) = try publicComponents()
        return try RSAPublicKey(modulus: n, exponent: e)
    }

    /// An RSASSA-PKCS1-v1_5 SHA-256 signature of `message`.
    public func signRS256(_ message: [UInt8]) throws -> [UInt8] { try PrivateKeyPEM.signSHA256(key, message) }

    /// A signature of `message` with `digest`: RSASSA-PKCS1-v1_5 (RS256/384/512), or RSASSA-PSS
    /// with a salt as long as the digest (PS256/384/512).
    public func sign(_ message: [UInt8], digest: Digest, pss: Bool) throws -> [UInt8] {
        try PrivateKeyPEM.sign(key, message, digest: digest, pss: pss)
    }

    private func component(_ name: UnsafePointer<CChar>) throws -> [UInt8] { try rsaComponent(key, name) }
}

/// One big-number parameter of an RSA key (its modulus or exponent) as big-endian bytes.
func rsaComponent(_ key: OpaquePointer, _ name: UnsafePointer<CChar>) throws -> [UInt8] {
    var number: OpaquePointer?
    guard EVP_PKEY_get_bn_param(key, name, &number) == 1, let number else {
        throw CryptoError("EVP_PKEY_get_bn_param")
    }
    defer { BN_free(number) }
    var bytes = [UInt8](repeating: 0, count: (Int(BN_num_bits(number)) + 7) / 8)
    _ = BN_bn2bin(number, &bytes)
    return bytes
}
