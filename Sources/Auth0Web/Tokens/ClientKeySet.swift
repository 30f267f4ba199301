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

    /// The set of `settings`' client keys.
    public init(settings: RelyingPartySettings) {
        let client = settings.client
        let binding = settings.binding
        // Each key once, by its thumbprint, with the algorithms it signs with: named when one,
        // not when two (a key signing assertions and request objects differently: a provider
        // would refuse the other under the one named).
        var entries: [(kid: String, fields: [String: JSONValue], algorithms: Set<SigningAlgorithm>)] = []
        func add(_ key: RSAPrivateKey, _ certificate: X509Certificate?, _ algorithm: SigningAlgorithm) {
            guard let (modulus, exponent) = try? key.publicComponents() else { return }
            let kid = JWKThumbprint.rsa(modulus: modulus, exponent: exponent)
            if let index = entries.firstIndex(where: { $0.kid == kid }) {
                entries[index].algorithms.insert(algorithm)
                return
            }
            var fields: [String: JSONValue] = [
                "kty": "RSA", "use": "sig", "kid": .string(kid), "n": .string(Base64URL.encode(modulus)),
                "e": .string(Base64URL.encode(exponent)),
            ]
            if let certificate {  // RFC 7517 §4.7 and §4.9: the certificate itself, and its thumbprint
                fields["x5c"] = .array([.string(Base64URL.encodeStandard(certificate.der))])
                fields["x5t#S256"] = .string(Base64URL.encode(certificate.sha256Thumbprint))
            }
            entries.append((kid, fields, [algorithm]))
        }
        for (key, certificate) in zip(client.assertionKeys, client.assertionCertificates) {
            add(key, certificate, client.assertionAlgorithm)
        }
        if binding.requestObjects {
            for key in binding.requestObjectKeys { add(key, nil, binding.requestObjectAlgorithm) }
        }
        let keys: [JSONValue] = entries.map { entry in
            var fields = entry.fields
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
