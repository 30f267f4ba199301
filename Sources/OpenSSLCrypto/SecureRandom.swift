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

/// Comparison whose time does not depend on where the inputs differ.
/// - SeeAlso: `CRYPTO_memcmp`.
public enum ConstantTime {
    /// True when both byte strings are equal.
    public static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        if a.isEmpty { return true }
        return a.withUnsafeBytes { x in
            b.withUnsafeBytes { y in CRYPTO_memcmp(x.baseAddress, y.baseAddress, a.count) == 0 }
        }
    }
}
