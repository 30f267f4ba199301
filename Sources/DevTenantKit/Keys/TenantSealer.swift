import OpenSSLCrypto
import Web

/// Seals the tenant's own small secrets (the login form's pending request, its SSO cookie)
/// with AES-256-GCM under a random key kept beside the signing key.
struct TenantSealer: Sendable {
    private let cipher: AESGCM

    init(key: [UInt8]) { cipher = AESGCM(key: key) }

    func seal(_ value: JSONValue, purpose: String, expiresAt: Double) throws -> String {
        let envelope: JSONValue = .object(["v": value, "exp": .number(expiresAt.rounded(.down))])
        return Base64URL.encode(try cipher.seal(envelope.serialized(), associatedData: Array(purpose.utf8)))
    }

    func open(_ text: String, purpose: String, now: Double) -> JSONValue? {
        guard text.utf8.count < 16 * 1024, let bytes = Base64URL.decode(text),
            let plain = cipher.open(bytes, associatedData: Array(purpose.utf8)), let envelope = JSONValue.parse(plain),
            let exp = envelope["exp"]?.number, exp > now
        else { return nil }
        return envelope["v"]
    }
}
