internal import COpenSSL
import PerThread

/// AES-256-GCM with a random 96-bit nonce: `nonce ‖ ciphertext ‖ 16-byte tag`.
/// - SeeAlso: `EVP_EncryptInit_ex`, `EVP_DecryptFinal_ex`, `EVP_CTRL_GCM_SET_TAG`.
public struct AESGCM: Sendable {
    /// The cipher, fetched once: OpenSSL 3 would otherwise look it up on every operation.
    nonisolated(unsafe) fileprivate static let cipher: OpaquePointer = EVP_CIPHER_fetch(nil, "AES-256-GCM", nil)!
    /// The nonce's size in bytes (96 bits, as GCM prefers).
    public static let nonceSize = 12
    /// The authentication tag's size in bytes.
    public static let tagSize = 16
    /// Each thread keeps its own contexts with the key already set up: a new context per call
    /// would expand the key again every time (a third of the cost of opening a session cookie).
    private let contexts: ThreadLocal<KeyedContexts, any Error>

    /// A cipher with a 32-byte key.
    public init(key: [UInt8]) {
        precondition(key.count == 32, "AES-256-GCM needs a 32-byte key")
        contexts = ThreadLocal { try KeyedContexts(key: key) }
    }

    /// Encrypts and authenticates `plaintext`, binding `associatedData` (e.g. the cookie name).
    public func seal(_ plaintext: [UInt8], associatedData: [UInt8]) throws -> [UInt8] {
        let context = try contexts.value().encrypt
        var out = SecureRandom.bytes(AESGCM.nonceSize)
        out.append(contentsOf: repeatElement(0, count: plaintext.count + AESGCM.tagSize))
        var failure: String?
        out.withUnsafeMutableBufferPointer { output in
            let base = output.baseAddress!
            var length: Int32 = 0
            if EVP_EncryptInit_ex(context, nil, nil, nil, base) != 1 {
                failure = "EVP_EncryptInit_ex"
            } else if !associatedData.isEmpty,
                EVP_EncryptUpdate(context, nil, &length, associatedData, Int32(associatedData.count)) != 1
            {
                failure = "EVP_EncryptUpdate(aad)"
            } else if EVP_EncryptUpdate(
                context, base + AESGCM.nonceSize, &length, plaintext, Int32(plaintext.count)) != 1
                || Int(length) != plaintext.count
            {
                failure = "EVP_EncryptUpdate"
            } else if EVP_EncryptFinal_ex(context, base + AESGCM.nonceSize + plaintext.count, &length) != 1
                || length != 0
            {
                failure = "EVP_EncryptFinal_ex"
            } else if COpenSSL_get_tag(
                context, Int32(AESGCM.tagSize), base + AESGCM.nonceSize + plaintext.count) != 1
            {
                failure = "GCM get tag"
            }
        }
        if let failure {
            ERR_clear_error()
            throw CryptoError(failure)
        }
        return out
    }

    /// Decrypts what `seal` made; nil when it was altered, truncated, or sealed with another key
    /// or other associated data.
    public func open(_ sealed: [UInt8], associatedData: [UInt8]) -> [UInt8]? {
        sealed.withUnsafeBufferPointer { sealed in
            associatedData.withUnsafeBufferPointer { open(sealed, associatedData: $0) }
        }
    }

    /// `open` on bytes where they lie.
    public func open(_ sealed: UnsafeBufferPointer<UInt8>, associatedData: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        guard sealed.count >= AESGCM.nonceSize + AESGCM.tagSize, let context = try? contexts.value().decrypt else {
            return nil
        }
        // Decrypted into a temporary buffer (on the stack when small; the slack is for EVP's final
        // call), then copied into an array made from it: an array made empty and filled in place
        // looks its type up in the runtime on every call, which cost more than the copy.
        let textCount = sealed.count - AESGCM.nonceSize - AESGCM.tagSize
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: textCount + 16) { output -> [UInt8]? in
            guard let written = Self.decrypt(sealed, associatedData: associatedData, into: output, with: context) else {
                ERR_clear_error()  // a failed check leaves an entry in this thread's OpenSSL error queue
                return nil
            }
            return Array(UnsafeBufferPointer(rebasing: output[..<written]))
        }
    }

    /// Decrypts and verifies `sealed` (nonce, text, tag, read where they lie: a cookie is opened on
    /// every page view) into `output`; the number of bytes written, or nil when it does not verify.
    private static func decrypt(
        _ sealed: UnsafeBufferPointer<UInt8>, associatedData: UnsafeBufferPointer<UInt8>,
        into output: UnsafeMutableBufferPointer<UInt8>, with context: OpaquePointer
    ) -> Int? {
        let base = sealed.baseAddress!
        let textCount = sealed.count - nonceSize - tagSize
        var length: Int32 = 0
        guard EVP_DecryptInit_ex(context, nil, nil, nil, base) == 1 else { return nil }
        if !associatedData.isEmpty,
            EVP_DecryptUpdate(context, nil, &length, associatedData.baseAddress, Int32(associatedData.count)) != 1
        {
            return nil
        }
        guard EVP_DecryptUpdate(context, output.baseAddress, &length, base + nonceSize, Int32(textCount)) == 1 else {
            return nil
        }
        let written = Int(length)
        let tag = UnsafeMutableRawPointer(mutating: base + nonceSize + textCount)
        guard COpenSSL_set_tag(context, Int32(tagSize), tag) == 1,
            EVP_DecryptFinal_ex(context, output.baseAddress! + written, &length) == 1
        else { return nil }
        return written + Int(length)
    }
}

/// One thread's two cipher contexts for one key; each call only sets a new nonce.
final class KeyedContexts {
    let encrypt: OpaquePointer
    let decrypt: OpaquePointer

    init(key: [UInt8]) throws {
        guard let encrypt = EVP_CIPHER_CTX_new() else { throw CryptoError("EVP_CIPHER_CTX_new") }
        guard let decrypt = EVP_CIPHER_CTX_new() else {
            EVP_CIPHER_CTX_free(encrypt)
            throw CryptoError("EVP_CIPHER_CTX_new")
        }
        self.encrypt = encrypt
        self.decrypt = decrypt
        guard EVP_EncryptInit_ex(encrypt, AESGCM.cipher, nil, key, nil) == 1,
            EVP_DecryptInit_ex(decrypt, AESGCM.cipher, nil, key, nil) == 1
        else { throw CryptoError("EVP_CipherInit_ex") }
    }

    deinit {
        EVP_CIPHER_CTX_free(encrypt)
        EVP_CIPHER_CTX_free(decrypt)
    }
}
