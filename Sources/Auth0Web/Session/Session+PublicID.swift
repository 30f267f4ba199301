import OpenSSLCrypto
import Web

extension Session {
    /// The id "Your sessions" shows for this login and ends it by: derived from the CSRF token
    /// (random per login) by a one-way hash, so it tells nothing of the token or the cookie.
    public var publicID: String {
        Base64URL.encode(SHA256.hash(Array(("session-id\u{0}" + String(self.csrfToken)).utf8)).prefix(16))
    }

    /// Eight bytes of a login's CSRF token as one number: what a worker's per-login memories (the
    /// registry's touches, the API tokens seen) are keyed by on a page view, with no string hashed.
    /// The token is random per login and sealed in its cookie, so nobody chooses these bytes;
    /// a memory that must tell two logins apart compares the whole token behind the key.
    static func loginKey(csrfToken: String) -> UInt64 {
        // Read from the string's bytes in place: its UTF-8 view walked byte by byte cost ~35
        // instructions a byte, and `utf8.prefix(8)` went through generic slicing, ~80.
        csrfToken.withUTF8Bytes { bytes in
            var key: UInt64 = 0
            for byte in bytes.prefix(8) { key = key << 8 | UInt64(byte) }
            return key
        }
    }
}
