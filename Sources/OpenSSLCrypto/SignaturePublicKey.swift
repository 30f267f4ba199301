internal import COpenSSL

/// A public key of the kinds JWS signs with beside RSA: ECDSA on P-256, P-384 or P-521 (ES256,
/// ES384, ES512) and Ed25519 (EdDSA), from a JWK's coordinates. Read-only after creation, so
/// threads may verify with it at once.
/// - SeeAlso: `EVP_PKEY_fromdata`, `EVP_PKEY_new_raw_public_key`, `EVP_DigestVerify`.
public final class SignaturePublicKey: @unchecked Sendable {
    /// The curves, with the coordinate size JWS uses for each (RFC 7518 6.2.1, RFC 8037).
    public enum Curve: String, Sendable {
        case p256 = "P-256", p384 = "P-384", p521 = "P-521", ed25519 = "Ed25519"

        /// Bytes per coordinate (and per half of an ECDSA signature).
        public var size: Int {
            switch self {
            case .p256, .ed25519: 32
            case .p384: 48
            case .p521: 66
            }
        }

        var group: String {
            switch self {
            case .p256: "prime256v1"
            case .p384: "secp384r1"
            case .p521: "secp521r1"
            case .ed25519: ""
            }
        }
    }

    /// Its curve.
    public let curve: Curve
    private let key: OpaquePointer

    /// An ECDSA key from a JWK's `crv`, `x` and `y` (each `curve.size` bytes).
    public init(curve: Curve, x: [UInt8], y: [UInt8]) throws {
        guard curve != .ed25519, x.count == curve.size, y.count == curve.size else {
            throw CryptoError("EC key: coordinates of \(x.count) and \(y.count) bytes for \(curve.rawValue)")
        }
        guard let builder = OSSL_PARAM_BLD_new() else { throw CryptoError("OSSL_PARAM_BLD_new") }
        defer { OSSL_PARAM_BLD_free(builder) }
        let point = [UInt8(4)] + x + y  // SEC 1 uncompressed
        let group = Array(curve.group.utf8CString)
        // The builder keeps pointers to both until it makes the parameters: one scope for all three.
        let made = point.withUnsafeBytes { pointBytes in
            group.withUnsafeBufferPointer { groupName -> UnsafeMutablePointer<OSSL_PARAM>? in
                guard
                    OSSL_PARAM_BLD_push_utf8_string(builder, COpenSSL_PKEY_PARAM_GROUP_NAME, groupName.baseAddress, 0)
                        == 1,
                    OSSL_PARAM_BLD_push_octet_string(
                        builder, COpenSSL_PKEY_PARAM_PUB_KEY, pointBytes.baseAddress, pointBytes.count) == 1
                else { return nil }
                return OSSL_PARAM_BLD_to_param(builder)
            }
        }
        guard let params = made else { throw CryptoError("EC key parameters") }
        defer { OSSL_PARAM_free(params) }
        // OpenSSL checks the point is on the curve.
        guard let key = try publicKey(ofType: "EC", from: params) else {
            throw CryptoError("EC key: not a point of \(curve.rawValue)")
        }
        self.curve = curve
        self.key = key
    }

    /// An Ed25519 key from a JWK's `x` (32 bytes).
    public init(ed25519 x: [UInt8]) throws {
        guard x.count == 32, let key = EVP_PKEY_new_raw_public_key(COpenSSL_EVP_PKEY_ED25519, nil, x, x.count) else {
            ERR_clear_error()
            throw CryptoError("Ed25519 key: not 32 bytes")
        }
        curve = .ed25519
        self.key = key
    }

    deinit { EVP_PKEY_free(key) }

    /// True when `signature` is this key's signature of `message`: for ECDSA, `r` then `s` as
    /// JWS writes them (RFC 7518 3.4), with `digest`; for Ed25519, the 64 bytes of RFC 8032.
    public func verify(signature: [UInt8], message: [UInt8], digest: Digest?) -> Bool {
        let checked: [UInt8]
        if curve == .ed25519 {
            guard signature.count == 64 else { return false }
            checked = signature
        } else {
            guard let der = Self.der(raw: signature, half: curve.size) else { return false }
            checked = der
        }
        guard let context = EVP_MD_CTX_new() else { return false }
        defer {
            EVP_MD_CTX_free(context)
            ERR_clear_error()
        }
        guard EVP_DigestVerifyInit(context, nil, curve == .ed25519 ? nil : digest?.evp, nil, key) == 1 else {
            return false
        }
        return EVP_DigestVerify(context, checked, checked.count, message, message.count) == 1
    }

    /// JWS's `r || s` as the DER OpenSSL verifies; nil when it is not two halves of `half` bytes.
    private static func der(raw: [UInt8], half: Int) -> [UInt8]? {
        guard raw.count == 2 * half, let signature = ECDSA_SIG_new() else { return nil }
        defer { ECDSA_SIG_free(signature) }
        guard let r = BN_bin2bn(raw, Int32(half), nil) else { return nil }
        guard let s = raw.withUnsafeBufferPointer({ BN_bin2bn($0.baseAddress! + half, Int32(half), nil) }) else {
            BN_free(r)
            return nil
        }
        guard ECDSA_SIG_set0(signature, r, s) == 1 else {
            BN_free(r)
            BN_free(s)
            return nil
        }
        var out: UnsafeMutablePointer<UInt8>?
        let length = i2d_ECDSA_SIG(signature, &out)
        guard length > 0, let out else { return nil }
        defer { CRYPTO_free(out, #file, #line) }
        return Array(UnsafeBufferPointer(start: out, count: Int(length)))
    }
}
