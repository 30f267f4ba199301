public import OpenSSLCrypto
import Web

/// The public halves of the application's own keys (`CLIENT_ASSERTION_KEY`: the first signs,
/// the next waits registered for a rotation; and `REQUEST_OBJECT_KEY`'s when given) as a JSON Web Key Set, for a provider that fetches a
/// client's keys by URI (`jwks_uri` at registration) and so follows a rotation by itself. Each
/// key's `kid` is its RFC 7638 thumbprint, the one the assertions name where the provider reads
/// it (`ProviderDialect.namesTheAssertionsKey`). Public parts only: `kty`, `n`, `e`, and a key's
/// certificate (`x5c`, `x5t#S256`) when one is given.
public struct ClientKeySet: Sendable {
    /// The set, serialised; nil when the application authenticates without keys.
    public let document: [UInt8]?

    /// The set of `settings`' client keys.
    public init(settings: RelyingPartySettings) {
        let client = settings.client
        let binding = settings.binding
        let signsRequests = binding.requestObjects
        let requestKeyIDs = Set(binding.requestObjectKeys.compactMap(Self.keyID(of:)))
        let assertionKeyIDs = Set(client.assertionKeys.compactMap(Self.keyID(of:)))
        // Each key once, with the algorithm it signs with; one that signs both ways with two
        // algorithms names none (a provider would refuse the other under its `alg`).
        var published: [(key: RSAPrivateKey, certificate: X509Certificate?, alg: SigningAlgorithm?)] = []
        for (key, certificate) in zip(client.assertionKeys, client.assertionCertificates) {
            let alsoRequests = signsRequests && Self.keyID(of: key).map(requestKeyIDs.contains) == true
            let alg =
                alsoRequests && binding.requestObjectAlgorithm != client.assertionAlgorithm
                ? nil : client.assertionAlgorithm
            published.append((key, certificate, alg))
        }
        for key in binding.requestObjectKeys where signsRequests {
            if Self.keyID(of: key).map(assertionKeyIDs.contains) == true { continue }
            published.append((key, nil, binding.requestObjectAlgorithm))
        }
        let keys: [JSONValue] = published.compactMap { key, certificate, alg in
            guard let (modulus, exponent) = try? key.publicComponents() else { return nil }
            var fields: [String: JSONValue] = [
                "kty": "RSA", "use": "sig", "kid": .string(JWKThumbprint.rsa(modulus: modulus, exponent: exponent)),
                "n": .string(Base64URL.encode(modulus)), "e": .string(Base64URL.encode(exponent)),
            ]
            if let alg { fields["alg"] = .string(alg.rawValue) }
            if let certificate {  // RFC 7517 §4.7 and §4.9: the certificate itself, and its thumbprint
                fields["x5c"] = .array([.string(Base64URL.encodeStandard(certificate.der))])
                fields["x5t#S256"] = .string(Base64URL.encode(certificate.sha256Thumbprint))
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
