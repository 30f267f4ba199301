internal import COpenSSL

/// An X.509 certificate for one of the application's keys: what a provider that knows a client's
/// key by its certificate (Microsoft Entra ID) is told of it, the thumbprints of its DER encoding
/// (a JWS header's `x5t#S256` and `x5t`, RFC 7515 §4.1.8 and §4.1.7).
/// - SeeAlso: `PEM_read_bio_X509`, `i2d_X509`, `X509_get0_pubkey`, `X509_sign`.
public final class X509Certificate: @unchecked Sendable {
    private let certificate: OpaquePointer
    /// The certificate's DER encoding, what its thumbprints are taken of.
    public let der: [UInt8]
    /// `x5t#S256`: its SHA-256 thumbprint (the bytes base64url encodes), taken once.
    public let sha256Thumbprint: [UInt8]
    /// `x5t`: its SHA-1 thumbprint (SHA-1 names the certificate here, it secures nothing).
    public let sha1Thumbprint: [UInt8]

    private init(_ certificate: OpaquePointer) throws {
        self.certificate = certificate
        let length = i2d_X509(certificate, nil)
        guard length > 0 else {
            X509_free(certificate)
            throw CryptoError("i2d_X509")
        }
        var bytes = [UInt8](repeating: 0, count: Int(length))
        let written = bytes.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var cursor = buffer.baseAddress
            return i2d_X509(certificate, &cursor)
        }
        guard written == length else {
            X509_free(certificate)
            throw CryptoError("i2d_X509")
        }
        der = bytes
        sha256Thumbprint = SHA256.hash(bytes)
        sha1Thumbprint = MessageDigest.of(bytes, EVP_sha1(), size: 20, name: "SHA-1")
    }

    deinit { X509_free(certificate) }

    /// Every certificate in `pem`, in order (none when it holds none).
    public static func all(inPEM pem: String) throws -> [X509Certificate] {
        let bytes = Array(pem.utf8)
        return try bytes.withUnsafeBufferPointer { buffer in
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else {
                throw CryptoError("BIO_new_mem_buf")
            }
            defer { BIO_free(bio) }
            var found: [X509Certificate] = []
            // No password, ever: without a callback OpenSSL asks for one on the terminal.
            while let next = PEM_read_bio_X509(bio, nil, { _, _, _, _ in 0 }, nil) {
                found.append(try X509Certificate(next))
            }
            ERR_clear_error()  // the end of the text, which OpenSSL reports as an error
            return found
        }
    }

    /// A certificate for `key`, signed by that key (self-signed, SHA-256), naming `commonName`,
    /// valid from now for `days`.
    public static func selfSigned(for key: RSAPrivateKey, commonName: String, days: Int) throws -> X509Certificate {
        guard let certificate = X509_new() else { throw CryptoError("X509_new") }
        let serial = Int.random(in: 1...Int.max)
        guard let name = X509_get_subject_name(certificate), X509_set_version(certificate, 2) == 1,
            ASN1_INTEGER_set(X509_get_serialNumber(certificate), serial) == 1,
            X509_gmtime_adj(X509_getm_notBefore(certificate), 0) != nil,
            X509_gmtime_adj(X509_getm_notAfter(certificate), days * 86_400) != nil,
            X509_set_pubkey(certificate, key.key) == 1,
            X509_NAME_add_entry_by_txt(name, "CN", COpenSSL_MBSTRING_ASC, commonName, -1, -1, 0) == 1,
            X509_set_issuer_name(certificate, name) == 1,
            X509_sign(certificate, key.key, EVP_sha256()) > 0
        else {
            X509_free(certificate)
            throw CryptoError("a self-signed certificate")
        }
        return try X509Certificate(certificate)
    }

    /// True when this certificate is for `key` (its public key is the key's).
    public func certifies(_ key: RSAPrivateKey) -> Bool {
        guard let publicKey = X509_get0_pubkey(certificate) else { return false }
        return EVP_PKEY_eq(publicKey, key.key) == 1
    }

    /// The certificate as PEM text.
    public func pem() throws -> String {
        try PrivateKeyPEM.text("PEM_write_bio_X509") { PEM_write_bio_X509($0, certificate) }
    }
}
