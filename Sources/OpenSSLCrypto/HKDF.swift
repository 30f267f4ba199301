internal import COpenSSL

/// HKDF-SHA256 (RFC 5869), to derive purpose-bound keys from configured secrets.
/// - SeeAlso: `EVP_KDF_fetch("HKDF")`, `EVP_KDF_derive`.
public enum HKDF {
    /// Derives `length` bytes from `secret`, `salt` and `info`.
    public static func sha256(secret: [UInt8], salt: [UInt8], info: [UInt8], length: Int) throws -> [UInt8] {
        guard let kdf = EVP_KDF_fetch(nil, "HKDF", nil) else { throw CryptoError("EVP_KDF_fetch(HKDF)") }
        defer { EVP_KDF_free(kdf) }
        guard let context = EVP_KDF_CTX_new(kdf) else { throw CryptoError("EVP_KDF_CTX_new") }
        defer { EVP_KDF_CTX_free(context) }
        var out = [UInt8](repeating: 0, count: length)
        var secret = secret
        var salt = salt
        var info = info
        let ok = secret.withUnsafeMutableBytes { secretBytes in
            salt.withUnsafeMutableBytes { saltBytes in
                info.withUnsafeMutableBytes { infoBytes in
                    var params = [
                        OSSL_PARAM_construct_utf8_string(
                            COpenSSL_KDF_PARAM_DIGEST, UnsafeMutablePointer(mutating: COpenSSL_DIGEST_SHA256), 0),
                        OSSL_PARAM_construct_octet_string(
                            COpenSSL_KDF_PARAM_KEY, secretBytes.baseAddress, secretBytes.count),
                        OSSL_PARAM_construct_octet_string(
                            COpenSSL_KDF_PARAM_SALT, saltBytes.baseAddress, saltBytes.count),
                        OSSL_PARAM_construct_octet_string(
                            COpenSSL_KDF_PARAM_INFO, infoBytes.baseAddress, infoBytes.count),
                        OSSL_PARAM_construct_end(),
                    ]
                    return out.withUnsafeMutableBufferPointer {
                        EVP_KDF_derive(context, $0.baseAddress, length, &params)
                    }
                }
            }
        }
        guard ok == 1 else { throw CryptoError("EVP_KDF_derive(HKDF)") }
        return out
    }
}
