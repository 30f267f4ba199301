import FoundationEssentials
import OpenSSLCrypto

/// `metadata-demo new-client-key [--certificate FILE [--name NAME] [--days N]]`: a new RSA 2048
/// private key as PEM on standard output, for CLIENT_ASSERTION_KEY (private_key_jwt); with
/// `--certificate`, a self-signed certificate of it written to FILE, for
/// CLIENT_ASSERTION_CERTIFICATE and for a provider that takes a certificate as the client's
/// credential (Microsoft Entra ID: upload FILE under Certificates & secrets).
enum NewClientKey {
    static let usage = "usage: metadata-demo new-client-key [--certificate FILE [--name NAME] [--days N]]"

    /// Runs the command with `arguments` (those after its name): its exit status.
    static func run(_ arguments: [String]) -> Int32 {
        var certificateFile: String?
        var name = "metadata-demo client"
        var days = 730
        var rest = arguments[...]
        while let option = rest.popFirst() {
            guard let value = rest.popFirst() else { return fail(usage, status: 2) }
            switch option {
            case "--certificate": certificateFile = value
            case "--name": name = value
            case "--days":
                guard let number = Int(value), (1...3650).contains(number) else {
                    return fail("--days: a whole number of days, 1 to 3650", status: 2)
                }
                days = number
            default: return fail(usage, status: 2)
            }
        }
        do {
            let key = try RSAPrivateKey(generatingBits: 2048)
            if let certificateFile {
                let certificate = try X509Certificate.selfSigned(for: key, commonName: name, days: days)
                // A certificate is public: readable by all, like any other.
                guard
                    FileManager.default.createFile(
                        atPath: certificateFile, contents: Data(try certificate.pem().utf8),
                        attributes: [.posixPermissions: 0o644])
                else { return fail("cannot write \(certificateFile)", status: 1) }
            }
            print(try key.pem(), terminator: "")
            return 0
        } catch {
            return fail("cannot make a key (\(error))", status: 1)
        }
    }

    private static func fail(_ message: String, status: Int32) -> Int32 {
        Output.problem(message)
        return status
    }
}
