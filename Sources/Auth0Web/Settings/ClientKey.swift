public import OpenSSLCrypto
import Web

/// One of the application's own RSA keys, once, with what goes with it: its `kid` (RFC 7638
/// thumbprint), its certificate when one is given, and what it signs and how (client assertions
/// for `private_key_jwt`, request objects for JAR). `CLIENT_ASSERTION_KEY`,
/// `CLIENT_ASSERTION_CERTIFICATE` and `REQUEST_OBJECT_KEY` read as one list, where the keys and
/// their certificates were parallel arrays zipped by whoever needed both.
public struct ClientKey: Sendable {
    /// The key.
    public let key: RSAPrivateKey
    /// Its thumbprint.
    public let kid: String
    /// Its certificate, when given.
    public let certificate: X509Certificate?
    /// How it signs client assertions, when it does.
    public internal(set) var assertionAlgorithm: SigningAlgorithm?
    /// How it signs request objects, when it does.
    public internal(set) var requestObjectAlgorithm: SigningAlgorithm?

    /// Every algorithm it signs with.
    public var algorithms: Set<SigningAlgorithm> {
        Set([assertionAlgorithm, requestObjectAlgorithm].compactMap { $0 })
    }

    /// The keys of `client` and `binding`, each once (by thumbprint), in the order given: the
    /// client-assertion keys first (the first signs), then the request-object keys when requests
    /// are signed.
    static func all(client: ClientSettings, binding: BindingSettings) -> [ClientKey] {
        var keys: [ClientKey] = []
        func add(_ key: RSAPrivateKey, _ certificate: X509Certificate?, _ change: (inout ClientKey) -> Void) {
            guard let kid = ClientKeySet.keyID(of: key) else { return }
            if let index = keys.firstIndex(where: { $0.kid == kid }) {
                change(&keys[index])
                return
            }
            var entry = ClientKey(key: key, kid: kid, certificate: certificate)
            change(&entry)
            keys.append(entry)
        }
        for (index, key) in client.assertionKeys.enumerated() {
            let certificate = index < client.assertionCertificates.count ? client.assertionCertificates[index] : nil
            add(key, certificate) { $0.assertionAlgorithm = client.assertionAlgorithm }
        }
        if binding.requestObjects {
            for key in binding.requestObjectKeys {
                add(key, nil) { $0.requestObjectAlgorithm = binding.requestObjectAlgorithm }
            }
        }
        return keys
    }
}
