import ExtrasBase64

/// Base64url without padding (RFC 4648 §5), as JWTs, PKCE and cookies use it.
public enum Base64URL {
    /// Encodes bytes.
    public static func encode(_ bytes: some Collection<UInt8>) -> String {
        Base64.encodeToString(bytes: bytes, options: [.base64UrlAlphabet, .omitPaddingCharacter])
    }

    /// Decodes text; nil when it is not base64url.
    public static func decode(_ text: some StringProtocol) -> [UInt8]? {
        let options: Base64.DecodingOptions = [.base64UrlAlphabet, .omitPaddingCharacter]
        // A native string's bytes are read in place; a cookie is ~2 KB, copied once less per view.
        if let decoded = text.utf8.withContiguousStorageIfAvailable({ try? Base64.decode(bytes: $0, options: options) })
        {
            return decoded
        }
        return try? Base64.decode(bytes: Array(text.utf8), options: options)
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
