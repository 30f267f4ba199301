internal import COpenSSL

/// SHA-256 digests.
/// - SeeAlso: `EVP_Digest`.
public enum SHA256 {
    /// The 32-byte digest of `bytes`.
    public static func hash(_ bytes: some Collection<UInt8>) -> [UInt8] {
        Digest.sha256.hash(Array(bytes))
    }
}

/// One-shot digests, as `EVP_Digest` makes them.
enum MessageDigest {
    /// `input`'s digest by `digest`, `size` bytes long.
    static func of(_ input: [UInt8], _ digest: OpaquePointer?, size: Int, name: String) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: size)
        var length: UInt32 = 0
        let ok = input.withUnsafeBytes { inputBuffer in
            out.withUnsafeMutableBufferPointer {
                EVP_Digest(inputBuffer.baseAddress, input.count, $0.baseAddress, &length, digest, nil)
            }
        }
        precondition(ok == 1 && length == size, "EVP_Digest(\(name)) failed")
        return out
    }
}
