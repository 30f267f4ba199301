internal import COpenSSL

/// A public key of `type` ("RSA", "EC") made by OpenSSL from `params`, which the caller frees;
/// nil when OpenSSL refuses them (an EC point not on its curve, say), its error queue cleared.
/// - SeeAlso: `EVP_PKEY_fromdata`
func publicKey(ofType type: String, from params: UnsafeMutablePointer<OSSL_PARAM>) throws -> OpaquePointer? {
    guard let context = EVP_PKEY_CTX_new_from_name(nil, type, nil) else { throw CryptoError("EVP_PKEY_CTX_new") }
    defer { EVP_PKEY_CTX_free(context) }
    var key: OpaquePointer?
    guard EVP_PKEY_fromdata_init(context) == 1,
        EVP_PKEY_fromdata(context, &key, COpenSSL_EVP_PKEY_PUBLIC_KEY, params) == 1
    else {
        ERR_clear_error()
        return nil
    }
    return key
}
