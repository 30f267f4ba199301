import FoundationEssentials
import OpenSSLCrypto
import Web

/// How each setting's text is read and checked: the issuer, the base URL, loopback hosts,
/// seconds, the assertion keys. Each problem is one line naming its setting.
extension RelyingPartySettings {
    /// The private keys of `setting`'s PEM blocks, one after another, read by `read` (nil: not a
    /// key of the `kind` it wants); each block that is not one is a problem naming `command`, which
    /// makes one. An `EC PARAMETERS` block (`openssl ecparam -genkey` writes one before the key)
    /// only names the curve, which the key names too; an encrypted key is refused, never asked a
    /// password for (OpenSSL would prompt on the terminal, and a service has none).
    static func privateKeys<Key>(
        _ text: String?, setting: Setting, kind: String, command: String, _ reader: inout SettingsReader,
        read: (String) -> Key?
    ) -> [Key] {
        guard let text, !text.isEmpty else { return [] }
        let blocks = text.split(separator: "-----BEGIN ").map { "-----BEGIN " + $0 }
            .filter { !$0.hasPrefix("-----BEGIN EC PARAMETERS-----") }
        var keys: [Key] = []
        for (index, block) in blocks.enumerated() {
            if block.hasPrefix("-----BEGIN ENCRYPTED PRIVATE KEY-----") || block.contains("Proc-Type: 4,ENCRYPTED") {
                reader.problem(
                    setting,
                    "PEM block \(index + 1) is encrypted; give the key unencrypted "
                        + "(`openssl pkey -in KEY -out KEY.pem`, then chmod 600) or make one with `\(command)`")
            } else if let key = read(block) {
                keys.append(key)
            } else {
                reader.problem(setting, "PEM block \(index + 1) is not \(kind); make one with `\(command)`")
            }
        }
        return keys
    }

    /// `IDENTITY_ASSERTION_KEY`'s P-256 keys.
    static func assertionKeys(_ text: String?, _ reader: inout SettingsReader) -> [ECPrivateKey] {
        privateKeys(
            text, setting: .identityAssertionKey, kind: "an EC P-256 private key",
            command: "metadata-demo new-assertion-key", &reader
        ) { try? ECPrivateKey(pem: $0) }
    }

    /// `CLIENT_ASSERTION_KEY`'s RSA keys of 2048 bits or more (a shorter one has no public key
    /// the product would accept either).
    static func clientAssertionKeys(
        _ text: String?, setting: Setting = .clientAssertionKey, _ reader: inout SettingsReader
    ) -> [RSAPrivateKey] {
        privateKeys(
            text, setting: setting, kind: "an RSA private key of 2048 bits or more",
            command: "metadata-demo new-client-key", &reader
        ) { block in
            (try? RSAPrivateKey(pem: block)).flatMap { (try? $0.publicKey()) != nil ? $0 : nil }
        }
    }

    /// An RSA signing algorithm `setting` names (one of `ClientAssertion.algorithms`), its default
    /// when unset; nil with one problem line (ending in `note`) when it names another.
    static func rsaAlgorithm(_ setting: TypedSetting<String>, note: String, _ reader: inout SettingsReader)
        -> SigningAlgorithm?
    {
        let text = reader.value(setting)
        if let algorithm = SigningAlgorithm(rawValue: text), ClientAssertion.algorithms.contains(algorithm) {
            return algorithm
        }
        reader.problem(
            setting,
            "\"\(text)\" must be one of " + ClientAssertion.algorithms.map(\.rawValue).joined(separator: ", ") + note)
        return nil
    }

    /// `DPOP_KEY`'s P-256 key: one, since every worker must prove with the same.
    static func dpopKey(_ text: String?, _ reader: inout SettingsReader) -> ECPrivateKey? {
        let keys = privateKeys(
            text, setting: .dpopKey, kind: "an EC P-256 private key", command: "metadata-demo new-dpop-key", &reader
        ) { try? ECPrivateKey(pem: $0) }
        if keys.count > 1 { reader.problem(.dpopKey, "give one key, the same on every worker") }
        return keys.first
    }

    /// The issuer from `AUTH0_DOMAIN` or `ISSUER_BASE_URL` (one of them), or nil with the problem said.
    static func issuer(domain: String?, issuerURL: String?, _ reader: inout SettingsReader) -> String? {
        switch (domain, issuerURL) {
        case (nil, nil):
            reader.problem(
                .auth0Domain,
                "missing; set it to your tenant's domain, e.g. example.us.auth0.com "
                    + "(or set ISSUER_BASE_URL to another provider's issuer URL)")
        case (.some, .some):
            reader.problem(.issuerBaseURL, "set it or AUTH0_DOMAIN, not both")
        case (let domain?, nil):
            if let issuer = issuer(fromDomain: domain) { return issuer }
            if let url = URLComponents(string: domain.contains("://") ? domain : "https://" + domain),
                !url.path.isEmpty, url.path != "/"
            {
                reader.problem(
                    .auth0Domain,
                    "\"\(domain)\" has a path; a tenant's domain is a host name "
                        + "(for an issuer with a path, set ISSUER_BASE_URL instead)")
            } else {
                reader.problem(
                    .auth0Domain, "\"\(domain)\" is not a host name (http:// URLs are accepted for loopback only)")
            }
        case (nil, let text?):
            if let issuer = issuer(url: text) { return issuer }
            reader.problem(
                .issuerBaseURL,
                "\"\(text)\" must be the issuer's https:// URL, with no query, fragment or "
                    + "user (http:// for loopback only)")
        }
        return nil
    }

    /// `example.auth0.com` → `https://example.auth0.com/`; `http://127.0.0.1:8081` → itself with `/`.
    static func issuer(fromDomain domain: String) -> String? {
        guard let issuer = issuer(url: domain.contains("://") ? domain : "https://" + domain),
            let url = URLComponents(string: issuer), url.path.isEmpty || url.path == "/"
        else { return nil }
        return withSlash(issuer)
    }

    /// An issuer URL as a provider publishes it: https (http on loopback), a host, any path, no
    /// query, fragment or user. Kept exactly, since tokens and discovery must name it exactly;
    /// only the scheme and host, which compare without case, are written in lower case.
    static func issuer(url text: String) -> String? {
        guard let url = URLComponents(string: text), let scheme = url.scheme?.lowercased(), let host = url.host,
            !host.isEmpty, url.query == nil, url.fragment == nil, url.user == nil, url.password == nil
        else { return nil }
        switch scheme {
        case "https": break
        case "http": guard isLoopback(host) else { return nil }
        default: return nil
        }
        let port = url.port.map { ":\($0)" } ?? ""
        return "\(scheme)://\(host.lowercased())\(port)\(url.percentEncodedPath)"
    }

    /// Auth0 when the issuer came from `AUTH0_DOMAIN` or is on Auth0's own domain.
    static func isAuth0Issuer(_ issuer: String?, fromDomain: Bool) -> Bool {
        if fromDomain { return true }
        guard let issuer, let host = URLComponents(string: issuer)?.host else { return false }
        return host.hasSuffix(".auth0.com")
    }

    /// `text` ending in one `/`.
    static func withSlash(_ text: String) -> String { text.hasSuffix("/") ? text : text + "/" }

    /// The base URL without a trailing slash; https, or http on loopback.
    static func baseURL(_ text: String) -> String? {
        guard let url = URLComponents(string: text), let host = url.host, !host.isEmpty, url.query == nil,
            url.fragment == nil, url.user == nil
        else { return nil }
        guard url.scheme == "https" || (url.scheme == "http" && isLoopback(host)) else { return nil }
        var result = text
        while result.hasSuffix("/") { result.removeLast() }
        return result
    }

    /// True for `localhost`, an IPv4 address in 127.0.0.0/8 or `::1`, read as addresses: a name
    /// such as `127.evil.example` is not loopback, whatever it starts with.
    static func isLoopback(_ host: String) -> Bool {
        if host.lowercased() == "localhost" || host == "::1" || host == "[::1]" { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4,
            parts.allSatisfy({ part in
                !part.isEmpty && part.count <= 3 && part.allSatisfy(\.isASCII) && part.allSatisfy(\.isNumber)
                    && Int(part)! <= 255
            })
        else { return false }
        return parts[0] == "127"
    }
}
