internal import COpenSSL

/// What the private key types share: reading and writing PEM, and a SHA-256 digest signature
/// in OpenSSL's own form (PKCS #1 v1.5 for RSA, DER for ECDSA).
enum PrivateKeyPEM {
    /// The first private key in `pem`, or nil.
    static func read(_ pem: String) -> OpaquePointer? {
        let bytes = Array(pem.utf8)
        // BIO_new_mem_buf keeps the pointer, so the buffer must outlive the BIO.
        return bytes.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return nil }
            defer { BIO_free(bio) }
            // No password, ever: without a callback OpenSSL asks for one on the terminal.
            return PEM_read_bio_PrivateKey(bio, nil, { _, _, _, _ in 0 }, nil)
        }
    }

    /// `key` as unencrypted PKCS #8 PEM text.
    static func write(_ key: OpaquePointer) throws -> String {
        try text("PEM_write_bio_PrivateKey") { PEM_write_bio_PrivateKey($0, key, nil, nil, 0, nil, nil) }
    }

    /// What `write` (an OpenSSL call named `operation`, 1 when it succeeds) writes into a memory BIO.
    static func text(_ operation: String, _ write: (OpaquePointer) -> Int32) throws -> String {
        guard let bio = BIO_new(BIO_s_mem()) else { throw CryptoError("BIO_new") }
        defer { BIO_free(bio) }
        guard write(bio) == 1 else { throw CryptoError(operation) }
        var data: UnsafeMutablePointer<CChar>?
        let length = COpenSSL_BIO_get_mem_data(bio, &data)
        guard let data, length > 0 else { throw CryptoError("BIO_get_mem_data") }
        return String(decoding: UnsafeRawBufferPointer(start: data, count: length), as: UTF8.self)
    }

    /// `key`'s SHA-256 signature of `message`.
    static func signSHA256(_ key: OpaquePointer, _ message: [UInt8]) throws -> [UInt8] {
        try sign(key, message, digest: .sha256, pss: false)
    }

    /// `key`'s signature of `message` with `digest` (RSA: PSS padding when `pss`).
    static func sign(_ key: OpaquePointer, _ message: [UInt8], digest: Digest, pss: Bool) throws -> [UInt8] {
        guard let context = EVP_MD_CTX_new() else { throw CryptoError("EVP_MD_CTX_new") }
        defer { EVP_MD_CTX_free(context) }
        var keyContext: OpaquePointer?
        guard EVP_DigestSignInit(context, &keyContext, digest.evp, nil, key) == 1 else {
            throw CryptoError("EVP_DigestSignInit")
        }
        if pss { guard let keyContext, COpenSSL_set_rsa_pss(keyContext) == 1 else { throw CryptoError("RSA-PSS") } }
        var length = 0
        guard EVP_DigestSign(context, nil, &length, message, message.count) == 1 else {
            throw CryptoError("EVP_DigestSign")
        }
        var signature = [UInt8](repeating: 0, count: length)
        guard EVP_DigestSign(context, &signature, &length, message, message.count) == 1 else {
            throw CryptoError("EVP_DigestSign")
        }
        return Array(signature[0..<length])
    }
}
