import Web

/// A compact JWS (`header.payload.signature`) split, with its header and signature decoded and
/// its payload not yet read: what a verifier looks at before it trusts anything. The claims are
/// parsed only after the signature holds (`JWT(verified:)`), so a forged token of any shape
/// costs a split, a short header and a signature check, never a parse of what it claims.
public struct CompactJWS: Sendable {
    /// The longest JOSE header read (base64url characters): `alg`, `typ`, `kid` and a certificate
    /// thumbprint or two are under 300; a header is no place for a payload's worth of JSON.
    public static let longestHeader = 2048
    /// The most objects and arrays a header may hold (`{` or `[` anywhere in it, counted before
    /// it is parsed): a header has one object, and perhaps a `jwk`, an `x5c` or a `crit` in it;
    /// JSON made of many small containers is what costs to parse.
    public static let mostHeaderContainers = 8
    /// The decoded JOSE header.
    public let header: JSONValue
    /// The signature's bytes.
    public let signature: [UInt8]
    /// `header.payload` as sent: the bytes the signature covers.
    public let signedPart: [UInt8]
    /// The payload as sent (base64url), decoded only by `claims()`.
    private let payload: Substring

    /// Splits `token` and decodes its header and signature; nil when it is longer than
    /// `longest`, not three parts, its header longer than `longestHeader`, holding more than
    /// `mostHeaderContainers` objects and arrays or not a JSON object, or a part is not base64url.
    public init?(_ token: String, longest: Int = JWT.longest) {
        guard token.utf8.count < longest else { return nil }
        // Split by byte: a split by Character walks grapheme clusters, the most of a refusal's cost.
        let parts = token.utf8.split(separator: UInt8(ascii: "."), maxSplits: 3, omittingEmptySubsequences: false)
            .map(Substring.init)
        guard parts.count == 3, parts[0].utf8.count <= Self.longestHeader, let headerBytes = Base64URL.decode(parts[0]),
            headerBytes.lazy.filter({ $0 == UInt8(ascii: "{") || $0 == UInt8(ascii: "[") }).count
                <= Self.mostHeaderContainers,
            let header = JSONValue.parse(headerBytes), header.object != nil,
            let signature = Base64URL.decode(parts[2])
        else { return nil }
        self.header = header
        self.signature = signature
        payload = parts[1]
        signedPart = Array(token.utf8[..<parts[1].endIndex])
    }

    /// The claims: the payload decoded and parsed now; nil when it is not a base64url JSON object.
    public func claims() -> JSONValue? {
        guard let bytes = Base64URL.decode(payload), let claims = JSONValue.parse(bytes), claims.object != nil else {
            return nil
        }
        return claims
    }
}
