import OpenSSLCrypto
import Web

/// A JWT the application signs with one of its own RSA keys (its client assertions, its request
/// objects): the key, the algorithm and the header, made once, since the `kid` (for a provider
/// that reads one: `ProviderDialect.namesTheAssertionsKey`) and a certificate's thumbprints are
/// the same for every token.
struct ClientSigner: Sendable {
    private let key: RSAPrivateKey
    private let algorithm: SigningAlgorithm
    private let header: JSONValue

    /// Tokens of `type` (`typ`) signed by `key` with `algorithm`, naming the key by its
    /// thumbprint when `namesKey`, and `certificate` by its SHA-256 and SHA-1 thumbprints (RFC 7515
    /// §4.1.8 and §4.1.7).
    init(
        key: RSAPrivateKey, algorithm: SigningAlgorithm, type: String, namesKey: Bool,
        certificate: X509Certificate? = nil
    ) {
        self.key = key
        self.algorithm = algorithm
        var header: [String: JSONValue] = ["alg": .string(algorithm.rawValue), "typ": .string(type)]
        if namesKey, let keyID = ClientKeySet.keyID(of: key) { header["kid"] = .string(keyID) }
        if let certificate {
            header["x5t#S256"] = .string(Base64URL.encode(certificate.sha256Thumbprint))
            header["x5t"] = .string(Base64URL.encode(certificate.sha1Thumbprint))
        }
        self.header = .object(header)
    }

    /// `claims` signed.
    func sign(_ claims: JSONValue) throws -> String {
        try JWT.signed(header: header, claims: claims) {
            try key.sign($0, digest: algorithm.digest, pss: algorithm.isPSS)
        }
    }
}
