import Web

/// What makes a cookie secret strong enough: HKDF adds no work to guessing, so a secret a
/// person chose (a phrase of 32 characters) could be found offline from any cookie. A secret
/// must be at least 32 random bytes, written as hex or base64 (what `openssl rand -hex 32`
/// or `openssl rand -base64 32` prints).
enum CookieSecret {
    /// The fewest random bytes a secret holds.
    static let minimumBytes = 32

    /// The secret's bytes when it is hex or base64 of at least `minimumBytes` that look random
    /// (at least 16 different byte values: 32 random bytes have about 30); nil otherwise.
    static func randomBytes(_ text: String) -> [UInt8]? {
        guard let bytes = hex(text) ?? base64(text), bytes.count >= minimumBytes, Set(bytes).count >= 16 else {
            return nil
        }
        return bytes
    }

    private static func hex(_ text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0, !digits.isEmpty else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let high = PercentEncoding.hexValue(digits[index]),
                let low = PercentEncoding.hexValue(digits[index + 1])
            else { return nil }
            bytes.append(high << 4 | low)
        }
        return bytes
    }

    /// Standard or URL-safe base64, padded or not.
    private static func base64(_ text: String) -> [UInt8]? {
        var trimmed = Substring(text)
        while trimmed.hasSuffix("=") { trimmed = trimmed.dropLast() }
        let urlSafe = String(trimmed).map { $0 == "+" ? "-" : $0 == "/" ? "_" : $0 }
        return Base64URL.decode(String(urlSafe))
    }
}
