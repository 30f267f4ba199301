import Web

/// `/api/v2/resource-servers` (APIs: read by id or by URL-encoded identifier, created, changed
/// without their identifier) and `/api/v2/client-grants` (what an application may ask of an API,
/// for itself or for its users).
extension DevTenant {
    static let resourceServerRoutes: [AdminRoute] = [
        AdminRoute(method: "GET", path: ["resource-servers", "*"], scope: "read:resource_servers") {
            try $0.readResourceServer($1)
        },
        AdminRoute(method: "POST", path: ["resource-servers"], scope: "create:resource_servers") {
            try $0.createResourceServer($1)
        },
        AdminRoute(method: "PATCH", path: ["resource-servers", "*"], scope: "update:resource_servers") {
            try $0.updateResourceServer($1)
        },
    ]

    static let clientGrantRoutes: [AdminRoute] = [
        AdminRoute(method: "GET", path: ["client-grants"], scope: "read:client_grants") { $0.listClientGrants($1) },
        AdminRoute(method: "POST", path: ["client-grants"], scope: "create:client_grants") {
            try $0.createClientGrant($1)
        },
        AdminRoute(method: "PATCH", path: ["client-grants", "*"], scope: "update:client_grants") {
            try $0.updateClientGrant($1)
        },
    ]

    private func readResourceServer(_ call: AdminCall) throws(ManagementRefusal) -> Response {
        let key = call.parameters[0]
        guard let server = directory.read({ $0.resourceServers.first { Self.names($0, key) } }) else {
            throw Self.inexistent("resource server", code: "inexistent_resource_server")
        }
        return Self.document(.object(server))
    }

    /// True when `key` is the API's id or its identifier.
    private static func names(_ server: [String: JSONValue], _ key: String) -> Bool {
        server["id"]?.string == key || server["identifier"]?.string == key
    }

    private func createResourceServer(_ call: AdminCall) throws(ManagementRefusal) -> Response {
        var server = try call.body(ManagementShapes.resourceServerCreate).object ?? [:]
        let identifier = server["identifier"]?.string ?? ""
        if identifier == config.managementAudience {
            throw Self.conflict("The Auth0 Management API cannot be created again.")
        }
        server["id"] = .string(TenantDirectory.newID(24, hex: true))
        server["name"] = server["name"] ?? .string(identifier)
        server["signing_alg"] = server["signing_alg"] ?? "RS256"
        server["scopes"] = server["scopes"] ?? .array([])
        try checkResourceServer(server)
        return try adding(
            server, to: \.resourceServers, unless: { $0["identifier"]?.string == identifier },
            conflict: "A resource server with the same identifier already exists.")
    }

    private func updateResourceServer(_ call: AdminCall) throws(ManagementRefusal) -> Response {
        let key = call.parameters[0]
        let change = try call.body(ManagementShapes.resourceServerUpdate).object ?? [:]
        let updated = try updating(
            \.resourceServers, where: { Self.names($0, key) },
            missing: Self.inexistent("resource server", code: "inexistent_resource_server")
        ) { (server) throws(ManagementRefusal) in
            for (field, value) in change { server[field] = value }
            try checkResourceServer(server)
        }
        return Self.document(.object(updated))
    }

    /// Checks an API as the tenant file's are (its token lifetime's bounds).
    private func checkResourceServer(_ server: [String: JSONValue]) throws(ManagementRefusal) {
        var problems: [String] = []
        _ = ResourceServer.all(in: .object(["resource_servers": .array([.object(server)])]), problems: &problems)
        if let problem = problems.first { throw ManagementRefusal(response: Self.invalidPayload("'\(problem)'")) }
    }

    private func listClientGrants(_ call: AdminCall) -> Response {
        let grants = directory.read(\.clientGrants).filter { grant in
            ["client_id", "audience", "subject_type"].allSatisfy { key in
                call.query[key].map { grant[key]?.string ?? "client" == $0 } ?? true
            }
        }
        return Self.document(.array(grants.map(JSONValue.object)))
    }

    private func createClientGrant(_ call: AdminCall) throws(ManagementRefusal) -> Response {
        var grant = try call.body(ManagementShapes.clientGrantCreate).object ?? [:]
        grant["id"] = .string("cgr_" + TenantDirectory.newID(16))
        grant["scope"] = grant["scope"] ?? .array([])
        grant["subject_type"] = grant["subject_type"] ?? "client"
        let stored = grant
        return try adding(
            stored, to: \.clientGrants,
            unless: {
                $0["client_id"] == stored["client_id"] && $0["audience"] == stored["audience"]
                    && $0["subject_type"] == stored["subject_type"]
            }, conflict: "A client grant for this client, audience and subject type already exists."
        ) { (objects) throws(ManagementRefusal) in
            guard objects.clients.contains(where: { $0["client_id"] == stored["client_id"] }) else {
                throw Self.inexistent("client", code: "inexistent_client")
            }
            let audience = stored["audience"]?.string ?? ""
            let server = objects.resourceServers.first { $0["identifier"]?.string == audience }
            guard server != nil || audience == directory.managementAudience else {
                throw Self.inexistent("resource server", code: "inexistent_resource_server")
            }
            // Scopes the API does not define cannot be granted (the Management API's are its own).
            let defined = Set(server?["scopes"]?.array?.compactMap { $0["value"]?.string } ?? [])
            if server != nil,
                let unknown = stored["scope"]?.array?.compactMap(\.string).first(where: { !defined.contains($0) })
            {
                throw ManagementRefusal(
                    response: Self.invalidPayload("'The scope \(unknown) is not defined by the resource server'"))
            }
        }
    }

    private func updateClientGrant(_ call: AdminCall) throws(ManagementRefusal) -> Response {
        let id = call.parameters[0]
        let change = try call.body(ManagementShapes.clientGrantUpdate).object ?? [:]
        let updated = try updating(
            \.clientGrants, where: { $0["id"]?.string == id },
            missing: Self.inexistent("client grant", code: "inexistent_client_grant")
        ) { grant in
            for (field, value) in change { grant[field] = value == .null ? nil : value }
        }
        return Self.document(.object(updated))
    }
}
