internal import COpenSSL

/// The SHA-2 digests JWS algorithms name (the number after RS, PS, ES and HS).
public enum Digest: Sendable, CaseIterable {
    case sha256, sha384, sha512

    /// The digest's length in bytes.
    public var size: Int {
        switch self {
        case .sha256: 32
        case .sha384: 48
        case .sha512: 64
        }
    }

    /// The digest of `bytes`.
    public func hash(_ bytes: [UInt8]) -> [UInt8] { MessageDigest.of(bytes, evp, size: size, name: name) }

    /// The digest's method, fetched once: OpenSSL 3 looks `EVP_sha256()` up in its provider on
    /// every use, half the cost of hashing a short text (a session's public id).
    var evp: OpaquePointer? {
        switch self {
        case .sha256: FetchedDigests.sha256
        case .sha384: FetchedDigests.sha384
        case .sha512: FetchedDigests.sha512
        }
    }

    var name: String {
        switch self {
        case .sha256: "SHA256"
        case .sha384: "SHA384"
        case .sha512: "SHA512"
        }
    }
}

/// The SHA-2 methods from the default provider, fetched at first use and kept for the process
/// (a fetched method is immutable, shared by every thread).
private enum FetchedDigests {
    nonisolated(unsafe) static let sha256: OpaquePointer = EVP_MD_fetch(nil, "SHA256", nil)!
    nonisolated(unsafe) static let sha384: OpaquePointer = EVP_MD_fetch(nil, "SHA384", nil)!
    nonisolated(unsafe) static let sha512: OpaquePointer = EVP_MD_fetch(nil, "SHA512", nil)!
}

/// HMAC with a SHA-2 digest (JWS's HS256/384/512).
/// - SeeAlso: `EVP_Q_mac`.
public enum HMAC {
    /// The HMAC of `message` under `key`.
    public static func mac(_ digest: Digest, key: [UInt8], message: [UInt8]) throws -> [UInt8] {
        var out = [UInt8](repeating: 0, count: digest.size)
        var length = 0
        // A key of no bytes is still a key to HMAC; OpenSSL wants a pointer all the same.
        let keyBytes = key.isEmpty ? [0] : key
        let made = out.withUnsafeMutableBufferPointer { buffer in
            EVP_Q_mac(
                nil, "HMAC", nil, digest.name, nil, keyBytes, key.count, message, message.count, buffer.baseAddress,
                buffer.count, &length)
        }
        guard made != nil, length == digest.size else { throw CryptoError("EVP_Q_mac(HMAC)") }
        return out
    }

    /// The HMAC-SHA-1 of `message` under `key`: only for one-time codes (RFC 6238's TOTP and the
    /// authenticator apps that compute them use it; HMAC-SHA-1 stands where SHA-1 alone does not).
    public static func sha1(key: [UInt8], message: [UInt8]) throws -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 20)
        var length = 0
        let keyBytes = key.isEmpty ? [0] : key
        let made = out.withUnsafeMutableBufferPointer { buffer in
            EVP_Q_mac(
                nil, "HMAC", nil, "SHA1", nil, keyBytes, key.count, message, message.count, buffer.baseAddress,
                buffer.count, &length)
        }
        guard made != nil, length == 20 else { throw CryptoError("EVP_Q_mac(HMAC-SHA1)") }
        return out
    }

    /// True when `mac` is `message`'s HMAC under `key`, compared in constant time.
    public static func verify(_ digest: Digest, key: [UInt8], message: [UInt8], mac: [UInt8]) -> Bool {
        guard let expected = try? Self.mac(digest, key: key, message: message) else { return false }
        return ConstantTime.equal(expected, mac)
    }
}
