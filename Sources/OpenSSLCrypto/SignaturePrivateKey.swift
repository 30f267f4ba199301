internal import COpenSSL

/// A private key on one of `SignaturePublicKey`'s curves, signing as JWS writes signatures:
/// ECDSA's `r || s` (ES256/384/512) or Ed25519's 64 bytes (EdDSA): what the tests sign for the
/// product to verify. Its DER-to-`r || s` conversion is `ECPrivateKey`'s too.
/// - SeeAlso: `EVP_PKEY_generate`, `EVP_DigestSign`, `d2i_ECDSA_SIG`.
public final class SignaturePrivateKey: @unchecked Sendable {
    /// Its curve.
    public let curve: SignaturePublicKey.Curve
    private let key: OpaquePointer

    /// Generates a new key on `curve`.
    public init(curve: SignaturePublicKey.Curve) throws {
        let name = curve == .ed25519 ? "ED25519" : "EC"
        guard let context = EVP_PKEY_CTX_new_from_name(nil, name, nil) else { throw CryptoError("EVP_PKEY_CTX_new") }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        guard EVP_PKEY_keygen_init(context) == 1,
            curve == .ed25519 || EVP_PKEY_CTX_set_group_name(context, curve.group) == 1,
            EVP_PKEY_generate(context, &key) == 1, let key
        else { throw CryptoError("\(curve.rawValue) key generation") }
        self.curve = curve
        self.key = key
    }

    deinit { EVP_PKEY_free(key) }

    /// The public key's JWK coordinates: `x`, and `y` for ECDSA (nil for Ed25519).
    public func publicCoordinates() throws -> (x: [UInt8], y: [UInt8]?) {
        if curve == .ed25519 {
            var x = [UInt8](repeating: 0, count: 32)
            var length = 32
            guard EVP_PKEY_get_raw_public_key(key, &x, &length) == 1, length == 32 else {
                throw CryptoError("EVP_PKEY_get_raw_public_key")
            }
            return (x, nil)
        }
        return (try coordinate(COpenSSL_PKEY_PARAM_EC_PUB_X), try coordinate(COpenSSL_PKEY_PARAM_EC_PUB_Y))
    }

    /// This key's signature of `message` as JWS writes it (`digest` for ECDSA).
    public func sign(_ message: [UInt8], digest: Digest) throws -> [UInt8] {
        if curve == .ed25519 {
            guard let context = EVP_MD_CTX_new() else { throw CryptoError("EVP_MD_CTX_new") }
            defer { EVP_MD_CTX_free(context) }
            var signature = [UInt8](repeating: 0, count: 64)
            var length = 64
            guard EVP_DigestSignInit(context, nil, nil, nil, key) == 1,
                EVP_DigestSign(context, &signature, &length, message, message.count) == 1, length == 64
            else { throw CryptoError("Ed25519 signature") }
            return signature
        }
        return try Self.raw(der: try PrivateKeyPEM.sign(key, message, digest: digest, pss: false), half: curve.size)
    }

    /// An ECDSA signature in OpenSSL's DER as JWS's `r || s`, `half` bytes each.
    static func raw(der: [UInt8], half: Int) throws -> [UInt8] {
        let parsed = der.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            var start: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2i_ECDSA_SIG(nil, &start, buffer.count)
        }
        guard let parsed else { throw CryptoError("d2i_ECDSA_SIG") }
        defer { ECDSA_SIG_free(parsed) }
        var r: OpaquePointer?
        var s: OpaquePointer?
        ECDSA_SIG_get0(parsed, &r, &s)
        var raw = [UInt8](repeating: 0, count: 2 * half)
        guard let r, let s,
            raw.withUnsafeMutableBufferPointer({ out in
                BN_bn2binpad(r, out.baseAddress, Int32(half)) == half
                    && BN_bn2binpad(s, out.baseAddress! + half, Int32(half)) == half
            })
        else { throw CryptoError("BN_bn2binpad") }
        return raw
    }

    private func coordinate(_ name: UnsafePointer<CChar>) throws -> [UInt8] {
        var number: OpaquePointer?
        guard EVP_PKEY_get_bn_param(key, name, &number) == 1, let number else {
            throw CryptoError("EVP_PKEY_get_bn_param")
        }
        defer { BN_free(number) }
        var bytes = [UInt8](repeating: 0, count: curve.size)
        guard BN_bn2binpad(number, &bytes, Int32(curve.size)) == curve.size else { throw CryptoError("BN_bn2binpad") }
        return bytes
    }
}
