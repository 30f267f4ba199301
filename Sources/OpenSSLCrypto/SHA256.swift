internal import COpenSSL

/// SHA-256 digests.
/// - SeeAlso: `EVP_Digest`.
public enum SHA256 {
    /// The 32-byte digest of `bytes`.
    public static func hash(_ bytes: some Collection<UInt8>) -> [UInt8] {
        let input = Array(bytes)
        var out = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        let ok = input.withUnsafeBytes { inputBuffer in
            out.withUnsafeMutableBufferPointer {
                EVP_Digest(inputBuffer.baseAddress, input.count, $0.baseAddress, &length, EVP_sha256(), nil)
            }
        }
        precondition(ok == 1 && length == 32, "EVP_Digest(SHA-256) failed")
        return out
    }
}
