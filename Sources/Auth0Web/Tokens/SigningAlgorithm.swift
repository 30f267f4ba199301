import OpenSSLCrypto

/// How the provider signs the ID tokens it issues this application (their JWS `alg`), as the
/// application is registered there (`ID_TOKEN_SIGNING_ALG`; Auth0: the application's JSON Web
/// Token Signature Algorithm, RS256 or HS256). The RSA, ECDSA and EdDSA ones are checked with the
/// provider's published keys of that kind, the HMAC ones with the client secret (OpenID Connect
/// Core 10.1): a token never chooses which, so a public key can never serve as an HMAC secret.
/// `none` is none of them.
public enum SigningAlgorithm: String, Sendable, CaseIterable {
    case rs256 = "RS256", rs384 = "RS384", rs512 = "RS512"
    case ps256 = "PS256", ps384 = "PS384", ps512 = "PS512"
    case es256 = "ES256", es384 = "ES384", es512 = "ES512"
    case edDSA = "EdDSA"
    case hs256 = "HS256", hs384 = "HS384", hs512 = "HS512"

    /// The digest the number names (EdDSA names none: Ed25519 hashes the message itself).
    public var digest: Digest {
        switch self {
        case .rs256, .ps256, .es256, .hs256: .sha256
        case .rs384, .ps384, .es384, .hs384: .sha384
        case .rs512, .ps512, .es512, .hs512, .edDSA: .sha512
        }
    }

    /// The curve of its keys, for ECDSA and EdDSA; nil for RSA and HMAC.
    public var curve: SignaturePublicKey.Curve? {
        switch self {
        case .es256: .p256
        case .es384: .p384
        case .es512: .p521
        case .edDSA: .ed25519
        default: nil
        }
    }

    /// True for HS256/384/512: checked with the client secret, not a published key.
    public var isHMAC: Bool { [.hs256, .hs384, .hs512].contains(self) }

    /// True for PS256/384/512 (RSASSA-PSS); false for RSASSA-PKCS1-v1_5 and HMAC.
    public var isPSS: Bool { [.ps256, .ps384, .ps512].contains(self) }
}
