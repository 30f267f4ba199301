import Web

/// A compact JWS (`header.payload.signature`) the tenant was sent, split and decoded but not yet
/// trusted: its own access tokens coming back, client assertions, DPoP proofs.
struct CompactJWS {
    let header: JSONValue
    let claims: JSONValue
    let signature: [UInt8]
    /// `header.payload` as sent: the bytes the signature covers.
    let signedPart: [UInt8]

    /// Nil unless `token` is three base64url parts, the first two JSON.
    init?(_ token: String) {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let header = Base64URL.decode(parts[0]).flatMap({ JSONValue.parse($0) }),
            let claims = Base64URL.decode(parts[1]).flatMap({ JSONValue.parse($0) }),
            let signature = Base64URL.decode(parts[2])
        else { return nil }
        self.header = header
        self.claims = claims
        self.signature = signature
        signedPart = Array("\(parts[0]).\(parts[1])".utf8)
    }
}
