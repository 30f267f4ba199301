internal import COpenSSL

/// AES-256-GCM with a random 96-bit nonce: `nonce ‖ ciphertext ‖ 16-byte tag`.
/// - SeeAlso: `EVP_EncryptInit_ex`, `EVP_DecryptFinal_ex`, `EVP_CTRL_GCM_SET_TAG`.
public struct AESGCM: Sendable {
    /// The cipher, fetched once: OpenSSL 3 would otherwise look it up on every operation.
    nonisolated(unsafe) private static let cipher: OpaquePointer = EVP_CIPHER_fetch(nil, "AES-256-GCM", nil)!
    public static let nonceSize = 12
    public static let tagSize = 16
    private let key: [UInt8]

    /// A cipher with a 32-byte key.
    public init(key: [UInt8]) {
        precondition(key.count == 32, "AES-256-GCM needs a 32-byte key")
        self.key = key
    }

    /// Encrypts and authenticates `plaintext`, binding `associatedData` (e.g. the cookie name).
    public func seal(_ plaintext: [UInt8], associatedData: [UInt8]) throws -> [UInt8] {
        let nonce = SecureRandom.bytes(AESGCM.nonceSize)
        guard let context = EVP_CIPHER_CTX_new() else { throw CryptoError("EVP_CIPHER_CTX_new") }
        defer { EVP_CIPHER_CTX_free(context) }
        var out = nonce
        out.reserveCapacity(nonce.count + plaintext.count + AESGCM.tagSize)
        var ciphertext = [UInt8](repeating: 0, count: plaintext.count + 16)
        var length: Int32 = 0
        var total = 0
        guard EVP_EncryptInit_ex(context, AESGCM.cipher, nil, key, nonce) == 1 else {
            throw CryptoError("EVP_EncryptInit_ex")
        }
        if !associatedData.isEmpty {
            guard EVP_EncryptUpdate(context, nil, &length, associatedData, Int32(associatedData.count)) == 1 else {
                throw CryptoError("EVP_EncryptUpdate(aad)")
            }
        }
        let updated = ciphertext.withUnsafeMutableBufferPointer {
            EVP_EncryptUpdate(context, $0.baseAddress, &length, plaintext, Int32(plaintext.count))
        }
        guard updated == 1 else { throw CryptoError("EVP_EncryptUpdate") }
        total = Int(length)
        let finished = ciphertext.withUnsafeMutableBufferPointer {
            EVP_EncryptFinal_ex(context, $0.baseAddress! + total, &length)
        }
        guard finished == 1 else { throw CryptoError("EVP_EncryptFinal_ex") }
        total += Int(length)
        var tag = [UInt8](repeating: 0, count: AESGCM.tagSize)
        guard COpenSSL_get_tag(context, Int32(AESGCM.tagSize), &tag) == 1 else { throw CryptoError("GCM get tag") }
        out.append(contentsOf: ciphertext[0..<total])
        out.append(contentsOf: tag)
        return out
    }

    /// Decrypts what `seal` made; nil when it was altered, truncated, or sealed with another key
    /// or other associated data.
    public func open(_ sealed: [UInt8], associatedData: [UInt8]) -> [UInt8]? {
        guard sealed.count >= AESGCM.nonceSize + AESGCM.tagSize else { return nil }
        guard let context = EVP_CIPHER_CTX_new() else { return nil }
        defer { EVP_CIPHER_CTX_free(context) }
        let textCount = sealed.count - AESGCM.nonceSize - AESGCM.tagSize
        // GCM writes exactly as many bytes as it reads; the slack is for EVP's final call.
        var plaintext = [UInt8](repeating: 0, count: textCount + 16)
        var written = 0
        // Nonce, text and tag are read where they lie in `sealed`: a cookie is opened on every page view.
        let verified = sealed.withUnsafeBufferPointer { input -> Bool in
            let base = input.baseAddress!
            var length: Int32 = 0
            guard EVP_DecryptInit_ex(context, AESGCM.cipher, nil, key, base) == 1 else { return false }
            if !associatedData.isEmpty {
                guard EVP_DecryptUpdate(context, nil, &length, associatedData, Int32(associatedData.count)) == 1 else {
                    return false
                }
            }
            return plaintext.withUnsafeMutableBufferPointer { output -> Bool in
                guard
                    EVP_DecryptUpdate(
                        context, output.baseAddress, &length, base + AESGCM.nonceSize, Int32(textCount)) == 1
                else { return false }
                written = Int(length)
                let tag = UnsafeMutableRawPointer(mutating: base + AESGCM.nonceSize + textCount)
                guard COpenSSL_set_tag(context, Int32(AESGCM.tagSize), tag) == 1 else { return false }
                guard EVP_DecryptFinal_ex(context, output.baseAddress! + written, &length) == 1 else { return false }
                written += Int(length)
                return true
            }
        }
        guard verified else {
            ERR_clear_error()  // a failed check leaves an entry in this thread's OpenSSL error queue
            return nil
        }
        plaintext.removeLast(plaintext.count - written)
        return plaintext
    }
}
