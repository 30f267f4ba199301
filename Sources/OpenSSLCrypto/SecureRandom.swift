internal import COpenSSL

/// Cryptographically secure random bytes.
/// - SeeAlso: `RAND_bytes`.
public enum SecureRandom {
    /// `count` random bytes; OpenSSL's generator failing is not survivable, so it stops the process.
    public static func bytes(_ count: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        let ok = out.withUnsafeMutableBufferPointer { RAND_bytes($0.baseAddress, Int32(count)) }
        precondition(ok == 1, "RAND_bytes failed: no secure randomness available")
        return out
    }
}
