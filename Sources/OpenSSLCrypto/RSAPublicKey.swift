internal import COpenSSL

/// An RSA public key for RS256 signature checks (ID tokens, access tokens).
/// Read-only after creation, so threads may verify with it at once.
/// - SeeAlso: `EVP_PKEY_fromdata`, `EVP_DigestVerify`.
public final class RSAPublicKey: @unchecked Sendable {
    let key: OpaquePointer

    /// The shortest modulus accepted, in bits.
    public static let minimumBits = 2048
    /// The longest modulus accepted, in bits: longer keys only cost time to verify.
    public static let maximumBits = 8192

    /// A key from its modulus and exponent as big-endian bytes (a JWK's decoded `n` and `e`);
    /// a modulus outside 2048–8192 bits or an exponent that is not odd, ≥ 3 and 32-bit is refused.
    public init(modulus: [UInt8], exponent: [UInt8]) throws {
        // Sizes are read without leading zero bytes: zeros in front do not make a key longer.
        let modulus = Array(modulus.drop { $0 == 0 })
        let exponent = Array(exponent.drop { $0 == 0 })
        let bits = modulus.isEmpty ? 0 : (modulus.count - 1) * 8 + (8 - modulus[0].leadingZeroBitCount)
        guard (RSAPublicKey.minimumBits...RSAPublicKey.maximumBits).contains(bits) else {
            throw CryptoError(
                "RSA key: modulus of \(bits) bits, not \(RSAPublicKey.minimumBits) to \(RSAPublicKey.maximumBits)")
        }
        // A public exponent is odd, at least 3 and fits 32 bits (Auth0 uses 65537).
        guard (1...4).contains(exponent.count), exponent.last! & 1 == 1, exponent.count > 1 || exponent[0] >= 3
        else { throw CryptoError("RSA key: exponent not an odd number from 3 to 2^32") }
        guard let builder = OSSL_PARAM_BLD_new() else { throw CryptoError("OSSL_PARAM_BLD_new") }
        defer { OSSL_PARAM_BLD_free(builder) }
        let n = BN_bin2bn(modulus, Int32(modulus.count), nil)
        let e = BN_bin2bn(exponent, Int32(exponent.count), nil)
        defer {
            BN_free(n)
            BN_free(e)
        }
        guard OSSL_PARAM_BLD_push_BN(builder, COpenSSL_PKEY_PARAM_RSA_N, n) == 1,
            OSSL_PARAM_BLD_push_BN(builder, COpenSSL_PKEY_PARAM_RSA_E, e) == 1,
            let params = OSSL_PARAM_BLD_to_param(builder)
        else { throw CryptoError("RSA key parameters") }
        defer { OSSL_PARAM_free(params) }
        guard let key = try publicKey(ofType: "RSA", from: params) else { throw CryptoError("EVP_PKEY_fromdata") }
        self.key = key
    }

    /// The first key of a PEM `PUBLIC KEY` block (SubjectPublicKeyInfo, as `openssl pkey -pubout`
    /// writes it); anything but an RSA key of 2048–8192 bits is refused.
    public init(pem: String) throws {
        let bytes = Array(pem.utf8)
        let read = bytes.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return nil }
            defer { BIO_free(bio) }
            return PEM_read_bio_PUBKEY(bio, nil, nil, nil)
        }
        guard let read else {
            ERR_clear_error()
            throw CryptoError("not a PEM public key")
        }
        let bits = Int(EVP_PKEY_get_bits(read))
        guard EVP_PKEY_is_a(read, "RSA") == 1, (RSAPublicKey.minimumBits...RSAPublicKey.maximumBits).contains(bits)
        else {
            EVP_PKEY_free(read)
            throw CryptoError(
                "not an RSA public key of \(RSAPublicKey.minimumBits) to \(RSAPublicKey.maximumBits) bits")
        }
        key = read
    }

    deinit { EVP_PKEY_free(key) }

    /// The modulus and exponent as big-endian bytes (for a JWK or its thumbprint).
    public func components() throws -> (modulus: [UInt8], exponent: [UInt8]) {
        (try rsaComponent(key, COpenSSL_PKEY_PARAM_RSA_N), try rsaComponent(key, COpenSSL_PKEY_PARAM_RSA_E))
    }

    /// True when `signature` is a valid RSASSA-PKCS1-v1_5 SHA-256 signature of `message`.
    public func verifyRS256(signature: [UInt8], message: [UInt8]) -> Bool {
        verify(signature: signature, message: message, digest: .sha256, pss: false)
    }

    /// True when `signature` is a valid signature of `message` with `digest`: RSASSA-PKCS1-v1_5
    /// (JWS's RS256/384/512), or RSASSA-PSS with a salt as long as the digest (PS256/384/512).
    public func verify(signature: [UInt8], message: [UInt8], digest: Digest, pss: Bool) -> Bool {
        guard let context = EVP_MD_CTX_new() else { return false }
        defer {
            EVP_MD_CTX_free(context)
            ERR_clear_error()
        }
        var keyContext: OpaquePointer?
        guard EVP_DigestVerifyInit(context, &keyContext, digest.evp, nil, key) == 1 else { return false }
        if pss { guard let keyContext, COpenSSL_set_rsa_pss(keyContext) == 1 else { return false } }
        return EVP_DigestVerify(context, signature, signature.count, message, message.count) == 1
    }
}
