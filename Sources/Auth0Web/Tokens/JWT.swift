import FoundationEssentials
import Web

/// A compact JWS (`header.payload.signature`) split and decoded, claims and all.
public struct JWT: Sendable {
    /// The longest token read: a provider that lists many groups or roles makes ID and access
    /// tokens of tens of kilobytes (16 KB refused a login whose ID token listed 650 groups).
    public static let longest = 64 * 1024
    /// The decoded JOSE header.
    public let header: JSONValue
    /// The decoded claims.
    public let claims: JSONValue
    /// The signature's bytes.
    public let signature: [UInt8]
    /// `header.payload` as sent: the bytes the signature covers.
    public let signedPart: [UInt8]

    /// Splits and decodes a token, claims and all, without checking its signature: for a token
    /// whose sender is already trusted. A verifier reads `CompactJWS` first and then
    /// `init(verified:)`. Nil when it is not three base64url parts of JSON objects, or longer
    /// than `longest`.
    public init?(_ token: String) {
        guard let jws = CompactJWS(token) else { return nil }
        self.init(verified: jws)
    }

    /// The token whose signature was checked, its claims parsed now; nil when they are not a
    /// JSON object.
    public init?(verified jws: CompactJWS) {
        guard let claims = jws.claims() else { return nil }
        header = jws.header
        self.claims = claims
        signature = jws.signature
        signedPart = jws.signedPart
    }

    /// A compact JWS of `header` and `claims`, its signature `sign`'s over the signing input.
    public static func signed(header: JSONValue, claims: JSONValue, by sign: ([UInt8]) throws -> [UInt8]) rethrows
        -> String
    {
        let input = Base64URL.encode(header.serialized()) + "." + Base64URL.encode(claims.serialized())
        return input + "." + Base64URL.encode(try sign(Array(input.utf8)))
    }

    /// The `aud` claim as a list (it may be one string or an array).
    public var audiences: [String] {
        if let one = claims["aud"]?.string { return [one] }
        return claims["aud"]?.array?.compactMap(\.string) ?? []
    }
}
