import ExtrasBase64

/// Base64url without padding (RFC 4648 §5), as JWTs, PKCE and cookies use it.
public enum Base64URL {
    /// Encodes bytes.
    public static func encode(_ bytes: some Collection<UInt8>) -> String {
        Base64.encodeToString(bytes: bytes, options: [.base64UrlAlphabet, .omitPaddingCharacter])
    }

    /// Decodes text; nil when it is not base64url.
    public static func decode(_ text: some StringProtocol) -> [UInt8]? {
        withDecoded(text) { Array($0) }
    }

    /// Standard base64 with padding (HTTP Basic authentication).
    public static func encodeStandard(_ bytes: some Collection<UInt8>) -> String {
        Base64.encodeToString(bytes: bytes)
    }

    /// Decodes standard base64 with padding.
    public static func decodeStandard(_ text: some StringProtocol) -> [UInt8]? {
        try? Base64.decode(bytes: Array(text.utf8))
    }
}
