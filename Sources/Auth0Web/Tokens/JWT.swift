import Foundation
import Web

/// A compact JWS (`header.payload.signature`) split and decoded, not yet trusted.
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

    /// Splits and decodes a token; nil when it is not three base64url parts of JSON objects, or
    /// longer than `longest`.
    public init?(_ token: String) {
        guard token.utf8.count < Self.longest else { return nil }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let headerBytes = Base64URL.decode(parts[0]),
            let claimBytes = Base64URL.decode(parts[1]), let signature = Base64URL.decode(parts[2]),
            let header = JSONValue.parse(headerBytes), header.object != nil,
            let claims = JSONValue.parse(claimBytes), claims.object != nil
        else { return nil }
        self.header = header
        self.claims = claims
        self.signature = signature
        signedPart = Array(parts[0].utf8) + [UInt8(ascii: ".")] + Array(parts[1].utf8)
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
