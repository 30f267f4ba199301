import OpenSSLCrypto
import Web

/// The directory in the state file, and what it starts as from the tenant file (`TenantSeed`).
extension TenantDirectory.Objects {
    /// The objects of `seed`: its applications (each enabled on the connection, its
    /// `management_api_scopes` made a machine-to-machine client grant), APIs, roles Action and factors.
    init(seed: TenantSeed, managementAudience: String, now: String) {
        connection = [
            "id": .string("con_" + TenantDirectory.newID(16)), "name": .string(TenantDirectory.connectionName),
            "strategy": "auth0",
        ]
        for entry in seed.clients {
            guard var document = entry.object, let id = document["client_id"]?.string else { continue }
            if let scopes = document.removeValue(forKey: "management_api_scopes") {
                clientGrants.append([
                    "id": .string("cgr_" + TenantDirectory.newID(16)), "client_id": .string(id),
                    "audience": .string(managementAudience), "scope": scopes, "subject_type": "client",
                ])
            }
            clients.append(document)
            connectionClients.append(id)
        }
        resourceServers = seed.resourceServers.compactMap(\.object).map { server in
            var server = server
            server["id"] = .string(TenantDirectory.newID(24, hex: true))
            return server
        }
        if let claim = seed.rolesClaim {
            let action: [String: JSONValue] = [
                "id": .string(TenantDirectory.newUUID()), "name": "Roles in ID tokens (tenant file)",
                "supported_triggers": .array([.object(["id": "post-login", "version": "v3"])]),
                "code": .string(RolesAction.code(claim: claim)), "runtime": "node22", "status": "built",
                "all_changes_deployed": .bool(true), "created_at": .string(now), "updated_at": .string(now),
                "__version": .number(1), "__deployed_code": .string(RolesAction.code(claim: claim)),
            ]
            actions.append(action)
            postLoginBindings.append([
                "id": .string(TenantDirectory.newUUID()), "trigger_id": "post-login",
                "action": .object(["id": action["id"]!, "name": action["name"]!]), "display_name": action["name"]!,
            ])
        }
        for name in TenantDirectory.factorNames { factors[name] = seed.factors[name] ?? false }
        settings = [
            "session_lifetime": .number(168), "idle_session_lifetime": .number(72),
            "oidc_logout": .object(["rp_logout_end_session_endpoint_discovery": .bool(true)]),
        ]
        seedFingerprint = seed.fingerprint
    }

    /// The objects as the state file holds them; nil when it holds none.
    init?(saved: JSONValue) {
        guard let saved = saved.object else { return nil }
        func documents(_ key: String) -> [[String: JSONValue]] { saved[key]?.array?.compactMap(\.object) ?? [] }
        clients = documents("clients")
        resourceServers = documents("resource_servers")
        clientGrants = documents("client_grants")
        connection = saved["connection"]?.object ?? [:]
        connectionClients = saved["connection_clients"]?.array?.compactMap(\.string) ?? []
        actions = documents("actions")
        postLoginBindings = documents("post_login_bindings")
        factors = (saved["factors"]?.object ?? [:]).compactMapValues(\.bool)
        settings = saved["settings"]?.object ?? [:]
        seedFingerprint = saved["seed"]?.string ?? ""
    }

    /// The objects as the state file keeps them.
    var saved: JSONValue {
        .object([
            "clients": .array(clients.map(JSONValue.object)),
            "resource_servers": .array(resourceServers.map(JSONValue.object)),
            "client_grants": .array(clientGrants.map(JSONValue.object)), "connection": .object(connection),
            "connection_clients": .array(connectionClients.map(JSONValue.string)),
            "actions": .array(actions.map(JSONValue.object)),
            "post_login_bindings": .array(postLoginBindings.map(JSONValue.object)),
            "factors": .object(factors.mapValues(JSONValue.bool)), "settings": .object(settings),
            "seed": .string(seedFingerprint),
        ])
    }
}

extension TenantDirectory {
    /// `count` random letters and digits (Auth0's client ids are 32 of them), or hex digits.
    static func newID(_ count: Int, hex: Bool = false) -> String {
        let alphabet = Array(
            hex ? "0123456789abcdef" : "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        return String(SecureRandom.bytes(count).map { alphabet[Int($0) % alphabet.count] })
    }

    /// A random UUID, lower case (an Action's id).
    static func newUUID() -> String {
        var bytes = SecureRandom.bytes(16)
        bytes[6] = bytes[6] & 0x0f | 0x40
        bytes[8] = bytes[8] & 0x3f | 0x80
        let hex = bytes.map { String($0, radix: 16).leftPadded(to: 2) }.joined()
        let parts = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { range in
            String(hex.dropFirst(range.lowerBound).prefix(range.count))
        }
        return parts.joined(separator: "-")
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
