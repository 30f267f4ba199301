import OpenSSLCrypto
import Web

/// The application's proof of itself without a shared secret (`private_key_jwt`, RFC 7523 and
/// OpenID Connect Core §9): a JWT it signs with its private key for each call to the provider,
/// naming itself (`iss`, `sub`), the provider (`aud`), a minute of validity and an id of its own
/// (`jti`), so a copy is useless once used or a minute on. Auth0 checks it against the
/// application's registered public keys (its "Private Key JWT" credentials, at most two, for rotation).
public struct ClientAssertion: Sendable {
    /// `client_assertion_type` of every such assertion.
    public static let type = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
    /// How long each assertion is valid: Auth0 takes at most five minutes and advises one.
    public static let lifetimeSeconds: Int64 = 60

    private let key: RSAPrivateKey
    private let algorithm: SigningAlgorithm
    private let clientID: String
    private let clock: Clock
    /// The `kid` the header names, or nil (Auth0 takes only the id it gave the credential).
    private let keyID: String?
    /// The key's certificate, which the header names by its thumbprints, or nil.
    private let certificate: X509Certificate?

    /// Assertions of `clientID`, signed with `key` (the first of the configured ones: the others
    /// are registered at the provider for rotation) by `algorithm`, an RSA one, naming `keyID`
    /// and `certificate` (by its SHA-256 and SHA-1 thumbprints, RFC 7515 §4.1.8 and §4.1.7).
    public init(
        key: RSAPrivateKey, algorithm: SigningAlgorithm, clientID: String, clock: Clock, keyID: String? = nil,
        certificate: X509Certificate? = nil
    ) {
        self.key = key
        self.algorithm = algorithm
        self.clientID = clientID
        self.clock = clock
        self.keyID = keyID
        self.certificate = certificate
    }

    /// A new assertion for one request to `audience`.
    public func make(audience: String) throws -> String {
        let now = Int64(clock.now())
        var header: [String: JSONValue] = ["alg": .string(algorithm.rawValue), "typ": "JWT"]
        if let keyID { header["kid"] = .string(keyID) }
        if let certificate {
            header["x5t#S256"] = .string(Base64URL.encode(certificate.sha256Thumbprint))
            header["x5t"] = .string(Base64URL.encode(certificate.sha1Thumbprint))
        }
        let claims: JSONValue = .object([
            "iss": .string(clientID), "sub": .string(clientID), "aud": .string(audience),
            "iat": .number(Double(now)), "exp": .number(Double(now + Self.lifetimeSeconds)),
            "jti": .string(Base64URL.encode(SecureRandom.bytes(16))),
        ])
        return try JWT.signed(header: .object(header), claims: claims) {
            try key.sign($0, digest: algorithm.digest, pss: algorithm.isPSS)
        }
    }

    /// The RSA algorithms an assertion may be signed with (`CLIENT_ASSERTION_ALG`); Auth0's
    /// credentials take RS256, RS384 and PS256.
    public static let algorithms: [SigningAlgorithm] = [.rs256, .rs384, .rs512, .ps256, .ps384, .ps512]
}
