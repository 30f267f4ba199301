public import OpenSSLCrypto
import Web

/// The public halves of the application's own keys (`CLIENT_ASSERTION_KEY`: the first signs,
/// the next waits registered for a rotation) as a JSON Web Key Set, for a provider that fetches a
/// client's keys by URI (`jwks_uri` at registration) and so follows a rotation by itself. Each
/// key's `kid` is its RFC 7638 thumbprint, the one the assertions name where the provider reads
/// it (`ProviderDialect.namesTheAssertionsKey`). Public parts only: `kty`, `n`, `e`.
public struct ClientKeySet: Sendable {
    /// The set, serialised; nil when the application authenticates without keys.
    public let document: [UInt8]?

    /// The set of `settings`' client keys.
    public init(settings: RelyingPartySettings) {
        let keys: [JSONValue] = settings.client.assertionKeys.compactMap { key in
            guard let (modulus, exponent) = try? key.publicComponents() else { return nil }
            return .object([
                "kty": "RSA", "use": "sig", "alg": .string(settings.client.assertionAlgorithm.rawValue),
                "kid": .string(JWKThumbprint.rsa(modulus: modulus, exponent: exponent)),
                "n": .string(Base64URL.encode(modulus)), "e": .string(Base64URL.encode(exponent)),
            ])
        }
        document = keys.isEmpty ? nil : JSONValue.object(["keys": .array(keys)]).serialized()
    }

    /// The `kid` of `key`: its thumbprint.
    public static func keyID(of key: RSAPrivateKey) -> String? {
        guard let (modulus, exponent) = try? key.publicComponents() else { return nil }
        return JWKThumbprint.rsa(modulus: modulus, exponent: exponent)
    }
}
