import OpenSSLCrypto
import Web

/// What the tenant's objects start as, read from the tenant file: its applications (Auth0 client
/// documents, with the file's own `management_api_scopes` standing for a machine-to-machine
/// client grant), its APIs, the roles Action (`actions.roles_claim`) and its MFA factors
/// (`guardian_factors`, all off unless named, as on a new Auth0 tenant).
public struct TenantSeed: Sendable {
    /// The applications, as the file gives them.
    var clients: [JSONValue] = []
    /// The APIs (`resource_servers`).
    var resourceServers: [JSONValue] = []
    /// `actions.roles_claim`: the tenant starts with the roles Action deployed and bound, putting
    /// the person's roles in ID tokens under this claim.
    var rolesClaim: String?
    /// `guardian_factors`: which factors start enabled (`otp` is the only one the tenant can ask).
    var factors: [String: Bool] = [:]
    /// A digest of the file as read and the issuer: the saved objects are the file's while both
    /// stay the same, and start again from it when either changes.
    var fingerprint = ""

    init() {}

    /// The seed of the tenant file `document` (whose text is `text`) at `issuer`, noting each problem.
    init(document: JSONValue, text: String, issuer: String, problems: inout [String]) {
        clients = document["clients"]?.array ?? []
        resourceServers = document["resource_servers"]?.array ?? []
        _ = ResourceServer.all(in: document, problems: &problems)
        rolesClaim = document["actions"]?["roles_claim"]?.string
        for (name, enabled) in document["guardian_factors"]?.object ?? [:] {
            guard TenantDirectory.factorNames.contains(name), let enabled = enabled.bool else {
                problems.append(
                    "guardian_factors: \(name) is not a factor (\(TenantDirectory.factorNames.joined(separator: ", "))) set to true or false"
                )
                continue
            }
            factors[name] = enabled
        }
        // Another issuer is another tenant: its objects (the Management API's grants name it) start again.
        fingerprint = Base64URL.encode(SHA256.hash(Array((issuer + "\n" + text).utf8)))
    }
}
