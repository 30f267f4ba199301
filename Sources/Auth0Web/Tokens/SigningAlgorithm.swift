import OpenSSLCrypto

/// How the provider signs the ID tokens it issues this application (their JWS `alg`), as the
/// application is registered there (`ID_TOKEN_SIGNING_ALG`; Auth0: the application's JSON Web
/// Token Signature Algorithm, RS256 or HS256). The RSA ones are checked with the provider's
/// published RSA keys, the HMAC ones with the client secret (OpenID Connect Core 10.1): a token
/// never chooses which, so a public key can never serve as an HMAC secret. `none` is none of them.
public enum SigningAlgorithm: String, Sendable, CaseIterable {
    case rs256 = "RS256", rs384 = "RS384", rs512 = "RS512"
    case ps256 = "PS256", ps384 = "PS384", ps512 = "PS512"
    case hs256 = "HS256", hs384 = "HS384", hs512 = "HS512"

    /// The digest the number names.
    public var digest: Digest {
        switch self {
        case .rs256, .ps256, .hs256: .sha256
        case .rs384, .ps384, .hs384: .sha384
        case .rs512, .ps512, .hs512: .sha512
        }
    }

    /// True for HS256/384/512: checked with the client secret, not a published key.
    public var isHMAC: Bool { [.hs256, .hs384, .hs512].contains(self) }

    /// True for PS256/384/512 (RSASSA-PSS); false for RSASSA-PKCS1-v1_5 and HMAC.
    public var isPSS: Bool { [.ps256, .ps384, .ps512].contains(self) }
}
