import Locking
import Web

/// The tenant's objects as its Management API keeps them, each an Auth0 document: applications,
/// APIs (resource servers), client grants, the database connection's applications, Actions and
/// the post-login trigger's bindings, MFA factors and tenant settings. What they say takes effect
/// wherever the tenant can make it: an application logs in with its callbacks, policies and
/// back-channel URL; an API's tokens carry its scopes; a machine-to-machine token carries its
/// client grant's scopes; roles reach ID tokens only while the roles Action is deployed and bound;
/// a second factor is asked only while `otp` is enabled. Seeded from the tenant file, saved with
/// the tenant's state (`TenantStore`).
final class TenantDirectory: Sendable {
    /// The MFA factors Auth0 names under `/api/v2/guardian/factors` (only `otp` is asked here).
    static let factorNames = [
        "sms", "push-notification", "otp", "email", "duo", "webauthn-roaming", "webauthn-platform", "recovery-code",
    ]
    /// The tenant's one database connection, as a new Auth0 tenant has it.
    static let connectionName = "Username-Password-Authentication"

    /// The documents, in the order they were made.
    struct Objects {
        var clients: [[String: JSONValue]] = []
        var resourceServers: [[String: JSONValue]] = []
        var clientGrants: [[String: JSONValue]] = []
        /// The database connection (`id`, `name`, `strategy`) and the applications it is enabled for.
        var connection: [String: JSONValue] = [:]
        var connectionClients: [String] = []
        var actions: [[String: JSONValue]] = []
        var postLoginBindings: [[String: JSONValue]] = []
        var factors: [String: Bool] = [:]
        var settings: [String: JSONValue] = [:]
        /// The tenant file's digest these objects started from.
        var seedFingerprint = ""
    }

    /// What the endpoints read, worked out from the documents after every change.
    private struct Derived {
        var clients: [TenantConfig.Client] = []
        var resourceServers: [ResourceServer] = []
        var rolesClaim: String?
    }

    private let contents: Lock<(objects: Objects, derived: Derived)>
    /// The Management API's audience, whose machine-to-machine grants `managementScopes` reads.
    let managementAudience: String

    init(_ objects: Objects, managementAudience: String) {
        self.managementAudience = managementAudience
        contents = Lock((objects, Self.derive(objects)))
    }

    // MARK: What the endpoints read

    /// The application with this `client_id`.
    func client(_ id: String) -> TenantConfig.Client? {
        contents.withLock { $0.derived.clients.first { $0.clientID == id } }
    }

    /// Every application, in the order they were made.
    var clients: [TenantConfig.Client] { contents.withLock { $0.derived.clients } }

    /// The API with this identifier.
    func resourceServer(_ identifier: String) -> ResourceServer? {
        contents.withLock { $0.derived.resourceServers.first { $0.identifier == identifier } }
    }

    /// The claim the deployed, bound roles Action puts roles under; nil while there is none.
    var rolesClaim: String? { contents.withLock { $0.derived.rolesClaim } }

    /// True while the factor `name` is enabled.
    func factorEnabled(_ name: String) -> Bool { contents.withLock { $0.objects.factors[name] ?? false } }

    /// True when the database connection is enabled for the application (it may log people in).
    func connectionEnabled(for clientID: String) -> Bool {
        contents.withLock { $0.objects.connectionClients.contains(clientID) }
    }

    /// The scopes of the application's machine-to-machine grant for the Management API.
    func managementScopes(of clientID: String) -> [String] {
        contents.withLock { contents in
            let grant = contents.objects.clientGrants.first {
                $0["client_id"]?.string == clientID && $0["audience"]?.string == managementAudience
                    && ($0["subject_type"]?.string ?? "client") == "client"
            }
            return grant?["scope"]?.array?.compactMap(\.string) ?? []
        }
    }

    /// True while the discovery document lists `end_session_endpoint` (the tenant setting
    /// `oidc_logout.rp_logout_end_session_endpoint_discovery`).
    var discoversEndSession: Bool {
        contents.withLock {
            $0.objects.settings["oidc_logout"]?["rp_logout_end_session_endpoint_discovery"]?.bool ?? true
        }
    }

    // MARK: Reading and changing the documents

    /// Reads the documents.
    func read<T>(_ body: (Objects) -> T) -> T { contents.withLock { body($0.objects) } }

    /// Changes the documents; what the endpoints read follows. The change may throw to leave
    /// everything as it was.
    func change<T, Failure: Error>(_ body: (inout Objects) throws(Failure) -> T) throws(Failure) -> T {
        try contents.withLock { (contents) throws(Failure) -> T in
            var objects = contents.objects
            let result = try body(&objects)
            contents = (objects, Self.derive(objects))
            return result
        }
    }

    private static func derive(_ objects: Objects) -> Derived {
        var ignored: [String] = []
        var derived = Derived()
        derived.clients = objects.clients.compactMap { TenantConfig.Client(document: .object($0), problems: &ignored) }
        derived.resourceServers = ResourceServer.all(
            in: .object(["resource_servers": .array(objects.resourceServers.map(JSONValue.object))]),
            problems: &ignored)
        derived.rolesClaim =
            objects.postLoginBindings.lazy.compactMap { binding -> String? in
                // A bound Action runs the code it was last deployed with.
                guard let code = objects.action(bound: binding)?["__deployed_code"]?.string else { return nil }
                return RolesAction.claim(inCode: code)
            }.first
        return derived
    }
}

extension TenantDirectory.Objects {
    /// The Action a binding refers to, by `ref.type` `action_id` or `action_name` (or, as the
    /// trigger lists them, its `action.id`).
    func action(bound binding: [String: JSONValue]) -> [String: JSONValue]? {
        let ref = binding["ref"]
        let id = binding["action"]?["id"]?.string ?? (ref?["type"]?.string == "action_id" ? ref?["value"]?.string : nil)
        let name = ref?["type"]?.string == "action_name" ? ref?["value"]?.string : nil
        return actions.first { ($0["id"]?.string == id && id != nil) || ($0["name"]?.string == name && name != nil) }
    }
}
