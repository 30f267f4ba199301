internal import COpenSSL

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
