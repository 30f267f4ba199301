public import OpenSSLCrypto
import Web

/// This application at the provider: its id and how it proves itself (a shared secret, or
/// `private_key_jwt` with its own keys).
public struct ClientSettings: Sendable {
    /// `AUTH0_CLIENT_ID`.
    public let id: String
    /// `AUTH0_CLIENT_SECRET` (or its file or credential); "" when `private_key_jwt` needs none.
    public let secret: String
    /// How the application authenticates at the token, revocation and pushed-request endpoints;
    /// nil lets `ClientAuthentication.chosen` decide from the provider's discovery document.
    public let authentication: ClientAuthentication?
    /// RSA private keys for `private_key_jwt`: the first signs, the others stay registered at the
    /// provider for rotation. Empty unless the application authenticates so.
    public let assertionKeys: [RSAPrivateKey]
    /// How the assertions are signed, as the key is registered (RS256 by default).
    public let assertionAlgorithm: SigningAlgorithm
    /// The certificates of `assertionKeys`, in their order (nil for a key without one): with one,
    /// each assertion names the certificate by its thumbprints (`x5t#S256` and `x5t`), as
    /// Microsoft Entra ID asks of a certificate credential.
    public let assertionCertificates: [X509Certificate?]

    /// Reads the group; `idTokens` (the provider group's algorithm, nil when it was wrong) says
    /// whether ID tokens are checked with the secret. Nil when any of it is wrong.
    public static func read(_ reader: inout SettingsReader, idTokens: SigningAlgorithm?) -> ClientSettings? {
        let start = reader.problems.count
        let id = reader.text(.auth0ClientID)
        if id == nil { reader.problem(.auth0ClientID, "missing; copy it from the application's settings") }
        let keys = RelyingPartySettings.clientAssertionKeys(reader.secret(.clientAssertionKey, optional: true), &reader)
        let certificates = readCertificates(&reader, keys: keys)
        let method = readMethod(&reader, hasKeys: !keys.isEmpty)
        reader.shows(.clientAuthMethod, method?.rawValue ?? "(the provider's choice)")
        let algorithm = RelyingPartySettings.rsaAlgorithm(
            .clientAssertionAlg, note: ", as the key is registered at the provider", &reader)
        // `private_key_jwt` needs no client secret, unless ID tokens are signed with it (HS256).
        let secretOptional = method == .privateKeyJWT && idTokens?.isHMAC != true
        let secret = reader.secret(.auth0ClientSecret, optional: secretOptional) ?? (secretOptional ? "" : nil)
        if secret == nil { reader.problem(.auth0ClientSecret, "missing (or set AUTH0_CLIENT_SECRET_FILE)") }
        guard reader.problems.count == start, let id, let secret, let algorithm else { return nil }
        return ClientSettings(
            id: id, secret: secret, authentication: method, assertionKeys: keys, assertionAlgorithm: algorithm,
            assertionCertificates: certificates)
    }

    /// `CLIENT_ASSERTION_CERTIFICATE`: PEM certificates, each found its key among `keys` by its
    /// public key; the first key's is required once any is given (it signs the assertions).
    private static func readCertificates(_ reader: inout SettingsReader, keys: [RSAPrivateKey]) -> [X509Certificate?] {
        let none = keys.map { _ -> X509Certificate? in nil }
        guard let text = reader.secret(.clientAssertionCertificate, optional: true) else { return none }
        guard let found = try? X509Certificate.all(inPEM: text), !found.isEmpty else {
            reader.problem(.clientAssertionCertificate, "holds no PEM certificate (-----BEGIN CERTIFICATE-----)")
            return none
        }
        guard let signing = keys.first else {
            reader.problem(.clientAssertionCertificate, "given without CLIENT_ASSERTION_KEY, whose keys it certifies")
            return none
        }
        for (index, certificate) in found.enumerated() where !keys.contains(where: certificate.certifies) {
            reader.problem(
                .clientAssertionCertificate, "certificate \(index + 1) is for none of CLIENT_ASSERTION_KEY's keys")
        }
        if !found.contains(where: { $0.certifies(signing) }) {
            reader.problem(
                .clientAssertionCertificate,
                "no certificate for CLIENT_ASSERTION_KEY's first key, the one that signs; make one with "
                    + "`metadata-demo new-client-key --certificate FILE`, or `openssl req -x509 -key KEY -subj /CN=NAME`"
            )
        }
        return keys.map { key in found.first { $0.certifies(key) } }
    }

    /// `CLIENT_AUTH_METHOD`, or `private_key_jwt` when a key is given; nil when the provider decides.
    private static func readMethod(_ reader: inout SettingsReader, hasKeys: Bool) -> ClientAuthentication? {
        let text = reader.text(.clientAuthMethod)
        let named = text.flatMap(ClientAuthentication.init(rawValue:))
        let method = named ?? (hasKeys ? .privateKeyJWT : nil)
        if text != nil, named == nil {
            reader.problem(.clientAuthMethod, "must be client_secret_basic, client_secret_post or private_key_jwt")
        } else if method == .privateKeyJWT, !hasKeys {
            reader.problem(
                .clientAuthMethod,
                "private_key_jwt needs CLIENT_ASSERTION_KEY (or CLIENT_ASSERTION_KEY_FILE, or the "
                    + "systemd credential client-assertion-key); make one with `metadata-demo new-client-key`")
        } else if let method, method != .privateKeyJWT, hasKeys {
            reader.problem(
                .clientAssertionKey, "given, but CLIENT_AUTH_METHOD is \(method.rawValue); leave one of them out")
        }
        return method
    }
}

extension Setting {
    static let auth0ClientID = Setting(
        "AUTH0_CLIENT_ID", "the application's client id at the provider", shippedExample: "your-client-id",
        guideStep: configure)
    static let auth0ClientSecret = Setting(
        "AUTH0_CLIENT_SECRET", "the application's client secret", secret: true, credential: "client-secret",
        guideStep: configure)
    static let clientAuthMethod = Setting(
        "CLIENT_AUTH_METHOD", "client_secret_basic, client_secret_post or private_key_jwt")
    static let clientAssertionKey = Setting(
        "CLIENT_ASSERTION_KEY", "RSA private keys for private_key_jwt (the first signs)", secret: true,
        credential: "client-assertion-key")
    static let clientAssertionCertificate = Setting(
        "CLIENT_ASSERTION_CERTIFICATE", "certificates of the client keys: assertions then carry x5t#S256 and x5t",
        credential: "client-assertion-certificate")
}

extension TypedSetting {
    static var clientAssertionAlg: TypedSetting<String> {
        Setting("CLIENT_ASSERTION_ALG", "how the client assertions are signed, as the key is registered")
            .text(default: SigningAlgorithm.rs256.rawValue)
    }
}
