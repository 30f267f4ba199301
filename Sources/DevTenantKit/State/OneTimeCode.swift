import OpenSSLCrypto

/// Time-based one-time codes (TOTP, RFC 6238 over RFC 4226's HOTP): HMAC-SHA-1, 30-second
/// steps, six digits, as authenticator apps and Auth0's Guardian compute them; the secret is
/// written in base32 (RFC 4648), as authenticator apps take it.
package enum OneTimeCode {
    static let step: Double = 30

    /// The six-digit code of `secret` (base32) at `time` (seconds since 1970); nil for a secret
    /// that is not base32.
    package static func code(secret: String, at time: Double) -> String? {
        guard let key = base32(secret), time >= 0 else { return nil }
        let counter = UInt64(time / step)
        let message = (0..<8).map { UInt8(truncatingIfNeeded: counter >> (56 - 8 * UInt64($0))) }
        guard let mac = try? HMAC.sha1(key: key, message: message) else { return nil }
        let offset = Int(mac[19] & 0x0F)
        let number =
            (UInt32(mac[offset] & 0x7F) << 24) | (UInt32(mac[offset + 1]) << 16) | (UInt32(mac[offset + 2]) << 8)
            | UInt32(mac[offset + 3])
        let digits = String(number % 1_000_000)
        return String(repeating: "0", count: 6 - digits.count) + digits
    }

    /// True when `typed` is the code of `secret` now, a step before or a step after (clocks
    /// differ, and a code typed at the end of its step arrives in the next), compared in
    /// constant time.
    package static func matches(_ typed: String, secret: String, at time: Double) -> Bool {
        matchingStep(typed, secret: secret, at: time) != nil
    }

    /// The time step (`time / step`) whose code `typed` is, among the three `matches` accepts;
    /// nil when it is none of them.
    package static func matchingStep(_ typed: String, secret: String, at time: Double) -> Int64? {
        let typed = typed.filter { $0 != " " }
        guard typed.count == 6 else { return nil }
        var found: Int64?
        for drift in [-step, 0, step] {
            if let code = code(secret: secret, at: time + drift),
                ConstantTime.equal(Array(code.utf8), Array(typed.utf8))
            {
                found = Int64((time + drift) / step)
            }
        }
        return found
    }

    /// The bytes of a base32 text (upper or lower case, `=` padding and spaces ignored).
    static func base32(_ text: String) -> [UInt8]? {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)
        var bytes: [UInt8] = []
        var buffer: UInt32 = 0
        var bits = 0
        for character in text.uppercased().utf8 where character != UInt8(ascii: "=") && character != UInt8(ascii: " ") {
            guard let value = alphabet.firstIndex(of: character) else { return nil }
            buffer = (buffer << 5) | UInt32(value)
            bits += 5
            if bits >= 8 {
                bits -= 8
                bytes.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
            }
        }
        return bytes.isEmpty ? nil : bytes
    }
}
