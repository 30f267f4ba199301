import OpenSSLCrypto
import Web

/// Seals values into text with AES-256-GCM (cookies, and what the ledger's store keeps for the
/// workers): encrypted and authenticated, the name bound in as associated data, issue and expiry
/// times inside. Several secrets rotate:
/// the first seals, every one opens.
public struct CookieSealer: Sendable {
    /// What was inside a cookie, with its times.
    public struct Opened: Sendable {
        /// What was sealed.
        public let payload: ArraySlice<UInt8>
        /// When it was sealed (seconds since 1970).
        public let issuedAt: Int64
        /// When it stops opening (seconds since 1970).
        public let expiresAt: Int64
    }

    private static let version: UInt8 = 1
    private let ciphers: [AESGCM]
    private let clock: Clock

    /// - Parameters:
    ///   - secrets: the configured secrets, newest first (each at least 32 characters).
    ///   - purpose: separates keys per use (a cookie's: `session`, `access-token`, `flash`,
    ///     `login-transaction`; a value kept in the ledger's store: `api-token`,
    ///     `renewal-result`, `refresh-rotation`), so what one use sealed never opens as another.
    public init(secrets: [String], purpose: String, clock: Clock) throws {
        precondition(!secrets.isEmpty, "at least one secret")
        ciphers = try secrets.map { secret in
            AESGCM(
                key: try HKDF.sha256(
                    secret: Array(secret.utf8), salt: Array("metadata-demo cookie v1".utf8),
                    info: Array(purpose.utf8), length: 32))
        }
        self.clock = clock
    }

    /// Seals `payload` for the cookie `name`, valid for `lifetime` seconds from now.
    public func seal(_ payload: [UInt8], name: String, lifetime: Int64) throws -> String {
        let now = Int64(clock.now())
        var writer = ByteWriter(capacity: payload.count + 24)
        writer.write(CookieSealer.version)
        writer.write(now)
        writer.write(now + lifetime)
        writer.write(bytes: payload)
        let sealed = try ciphers[0].seal(writer.bytes, associatedData: Array(name.utf8))
        return Base64URL.encode(sealed)
    }

    /// Opens cookie text sealed for `name`; nil when it is tampered, truncated, sealed under
    /// another name or an unknown key, or expired.
    public func open(_ text: some StringProtocol, name: String) -> Opened? {
        guard !text.isEmpty, text.utf8.count < 64 * 1024 else { return nil }
        // The sealed bytes are decoded into a buffer lent for the opening: no array for them.
        return name.withUTF8Bytes { aad in
            Base64URL.withDecoded(text) { sealed -> Opened? in
                for cipher in ciphers {
                    guard let plain = cipher.open(sealed, associatedData: aad) else { continue }
                    return opened(plain)
                }
                return nil
            }
        }
    }

    private func opened(_ plain: [UInt8]) -> Opened? {
        var reader = ByteReader(plain)
        guard (try? reader.readByte()) == CookieSealer.version,
            let issuedAt = try? reader.readInt64(), let expiresAt = try? reader.readInt64(),
            let payload = try? reader.readRange(), reader.isAtEnd
        else { return nil }
        guard Self.isLive(expiresAt: expiresAt, now: clock.now()) else { return nil }
        return Opened(payload: plain[payload], issuedAt: issuedAt, expiresAt: expiresAt)
    }

    /// Whether a value sealed to expire at `expiresAt` still opens at `now`: the one rule, also
    /// for what was opened before and kept (`OpenedSessions`).
    static func isLive(expiresAt: Int64, now: Double) -> Bool { Double(expiresAt) > now }
}
