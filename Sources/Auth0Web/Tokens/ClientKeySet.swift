public import OpenSSLCrypto
import Web

/// The public halves of the application's own keys (`CLIENT_ASSERTION_KEY`: the first signs,
/// the next waits registered for a rotation; and `REQUEST_OBJECT_KEY`'s when given) as a JSON Web
/// Key Set, for a provider that fetches a client's keys by URI (`jwks_uri` at registration) and so
/// follows a rotation by itself. Each key's `kid` is its RFC 7638 thumbprint, the one the
/// assertions name where the provider reads it (`ProviderDialect.namesTheAssertionsKey`). Public
/// parts only: `kty`, `n`, `e`, and a key's certificate (`x5c`, `x5t#S256`) when one is given.
public struct ClientKeySet: Sendable {
    /// The set, serialised; nil when the application authenticates without keys.
    public let document: [UInt8]?

    /// The set of `settings`' client keys: each once, named with its algorithm when it signs with
    /// one, not when two (a key signing assertions and request objects differently: a provider
    /// would refuse the other under the one named).
    public init(settings: RelyingPartySettings) {
        let keys: [JSONValue] = settings.clientKeys.compactMap { entry in
            guard let (modulus, exponent) = try? entry.key.publicComponents() else { return nil }
            var fields: [String: JSONValue] = [
                "kty": "RSA", "use": "sig", "kid": .string(entry.kid), "n": .string(Base64URL.encode(modulus)),
                "e": .string(Base64URL.encode(exponent)),
            ]
            if let certificate = entry.certificate {  // RFC 7517 §4.7 and §4.9: the certificate, and its thumbprint
                fields["x5c"] = .array([.string(Base64URL.encodeStandard(certificate.der))])
                fields["x5t#S256"] = .string(Base64URL.encode(certificate.sha256Thumbprint))
            }
            if entry.algorithms.count == 1, let algorithm = entry.algorithms.first {
                fields["alg"] = .string(algorithm.rawValue)
            }
            return .object(fields)
        }
        document = keys.isEmpty ? nil : JSONValue.object(["keys": .array(keys)]).serialized()
    }

    /// The `kid` of `key`: its thumbprint.
    public static func keyID(of key: RSAPrivateKey) -> String? {
        guard let (modulus, exponent) = try? key.publicComponents() else { return nil }
        return JWKThumbprint.rsa(modulus: modulus, exponent: exponent)
    }
}
