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

    private let signer: ClientSigner
    private let clientID: String
    private let clock: Clock

    /// Assertions of `clientID`, made by `signer` (the first of the configured keys: the others
    /// are registered at the provider for rotation).
    init(signer: ClientSigner, clientID: String, clock: Clock) {
        self.signer = signer
        self.clientID = clientID
        self.clock = clock
    }

    /// A new assertion for one request to `audience`.
    public func make(audience: String) throws -> String {
        let now = Int64(clock.now())
        return try signer.sign(
            .object([
                "iss": .string(clientID), "sub": .string(clientID), "aud": .string(audience),
                "iat": .number(Double(now)), "exp": .number(Double(now + Self.lifetimeSeconds)),
                "jti": .string(Base64URL.encode(SecureRandom.bytes(16))),
            ]))
    }

    /// The RSA algorithms an assertion may be signed with (`CLIENT_ASSERTION_ALG`); Auth0's
    /// credentials take RS256, RS384 and PS256.
    public static let algorithms: [SigningAlgorithm] = [.rs256, .rs384, .rs512, .ps256, .ps384, .ps512]
}
