import OpenSSLCrypto
import Web

extension Session {
    /// The id "Your sessions" shows for this login and ends it by: derived from the CSRF token
    /// (random per login) by a one-way hash, so it tells nothing of the token or the cookie.
    public var publicID: String {
        Base64URL.encode(SHA256.hash(Array(("session-id\u{0}" + String(csrfToken)).utf8)).prefix(16))
    }
}
