import Web

/// Sets the tenant up for this site through its Management API: `survey()` reads what the tenant
/// holds of each object the blueprint names (by its natural key: an application by its id or
/// name, an API by its identifier, a grant by application, audience and subject type, an Action
/// by its name), `changes` says what is to be created or changed, field by field, and `apply()`
/// makes it so in dependency order. Nothing is ever deleted, and a tenant that holds what the
/// site needs gets no write at all.
public final class TenantSetup {
    let blueprint: TenantBlueprint
    /// The Management API session it reads and writes through (its count of writes).
    public let session: ManagementSession

    /// What the survey found: each object's document, nil when the tenant has none.
    var apis: [JSONValue?] = []
    var application: JSONValue?
    /// Each key's credential id at the application, by kid.
    var credentialIDs: [String: String] = [:]
    var connectionID = ""
    var connectionEnabled = false
    var grants: [JSONValue?] = []
    var action: JSONValue?
    var bindings: [JSONValue] = []
    var otpEnabled = true
    var settings: JSONValue = .object([:])

    /// A set-up of `blueprint` through `session`.
    public init(blueprint: TenantBlueprint, session: ManagementSession) {
        self.blueprint = blueprint
        self.session = session
    }

    /// The application's client id, once the tenant has it.
    public var clientID: String? { application?["client_id"]?.string ?? blueprint.clientID }

    /// The scopes reading needs, and writing.
    var readScopes: [String] {
        var scopes = ["read:resource_servers", "read:clients", "read:client_grants", "read:connections"]
        if !(blueprint.assertionKeys + blueprint.requestObjectKeys).isEmpty { scopes.append("read:client_credentials") }
        if blueprint.rolesAction != nil { scopes.append("read:actions") }
        if blueprint.needsOTP { scopes.append("read:guardian_factors") }
        if !blueprint.tenantSettings.isEmpty { scopes.append("read:tenant_settings") }
        return scopes
    }

    /// Reads what the tenant holds of everything the blueprint names.
    public func survey() throws(ManagementSession.Failure) {
        try session.require(readScopes)
        apis = []
        for api in blueprint.apis { apis.append(try session.get("resource-servers/" + Self.encoded(api.audience))) }
        application = try findApplication()
        if let clientID = application?["client_id"]?.string {
            if !(blueprint.assertionKeys + blueprint.requestObjectKeys).isEmpty {
                for credential in try session.get("clients/\(Self.encoded(clientID))/credentials")?.array ?? [] {
                    if let kid = credential["kid"]?.string, let id = credential["id"]?.string {
                        credentialIDs[kid] = id
                    }
                }
            }
        }
        let connections = try session.get("connections?strategy=auth0&name=" + Self.encoded(blueprint.connectionName))
        guard let connection = connections?.array?.first?["id"]?.string else {
            throw ManagementSession.Failure(
                description: "AUTH0: the tenant has no database connection \(blueprint.connectionName)")
        }
        connectionID = connection
        grants = []
        if let clientID {
            let enabled = try session.get("connections/\(Self.encoded(connection))/clients?take=100")
            connectionEnabled = enabled?["clients"]?.array?.contains { $0["client_id"]?.string == clientID } == true
            for grant in blueprint.userGrants {
                let query =
                    "client-grants?client_id=\(Self.encoded(clientID))&audience=\(Self.encoded(grant.audience))&subject_type=user"
                grants.append(try session.get(query)?.array?.first)
            }
        } else {
            grants = blueprint.userGrants.map { _ in nil }
        }
        if let (name, _) = blueprint.rolesAction {
            action = try session.get("actions/actions?triggerId=post-login&actionName=" + Self.encoded(name))?[
                "actions"]?
                .array?.first
            bindings = try session.get("actions/triggers/post-login/bindings")?["bindings"]?.array ?? []
        }
        if blueprint.needsOTP {
            otpEnabled =
                try session.get("guardian/factors")?.array?.contains {
                    $0["name"]?.string == "otp" && $0["enabled"]?.bool == true
                } == true
        }
        if !blueprint.tenantSettings.isEmpty { settings = try session.get("tenants/settings") ?? .object([:]) }
    }

    /// The application by its client id, or (none given yet) by its name.
    private func findApplication() throws(ManagementSession.Failure) -> JSONValue? {
        if let id = blueprint.clientID {
            guard let found = try session.get("clients/" + Self.encoded(id)) else {
                throw ManagementSession.Failure(
                    description: "AUTH0_CLIENT_ID: the tenant has no application \(id) (remove the setting to have "
                        + "`metadata-demo auth0 apply` make one called \(blueprint.applicationName))")
            }
            return found
        }
        var named: [String] = []
        var page = 0
        while true {
            let list =
                try session.get("clients?fields=client_id,name&include_fields=true&per_page=50&page=\(page)")?.array
                ?? []
            named += list.filter { $0["name"]?.string == blueprint.applicationName }.compactMap {
                $0["client_id"]?.string
            }
            if list.count < 50 { break }
            page += 1
        }
        guard named.count <= 1 else {
            throw ManagementSession.Failure(
                description:
                    "AUTH0_APPLICATION_NAME: \(named.count) applications are called \(blueprint.applicationName): "
                    + "set AUTH0_CLIENT_ID to this site's")
        }
        return try named.first.flatMap { id throws(ManagementSession.Failure) in
            try session.get("clients/" + Self.encoded(id))
        }
    }

    /// A path segment or query value, percent-encoded.
    static func encoded(_ text: String) -> String { PercentEncoding.encode(text) }
}
