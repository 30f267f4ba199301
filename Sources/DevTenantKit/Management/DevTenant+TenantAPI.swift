import Web

/// `/api/v2/connections` (the database connection and the applications it is enabled for),
/// `/api/v2/guardian/factors` (MFA factors on or off) and `/api/v2/tenants/settings`.
extension DevTenant {
    static let tenantRoutes: [AdminRoute] = [
        AdminRoute(method: "GET", path: ["connections"], scope: "read:connections") { $0.listConnections($1) },
        AdminRoute(method: "GET", path: ["connections", "*", "clients"], scope: "read:connections") {
            try $0.connectionClients($1)
        },
        AdminRoute(method: "PATCH", path: ["connections", "*", "clients"], scope: "update:connections") {
            try $0.enableConnection($1)
        },
        AdminRoute(method: "GET", path: ["guardian", "factors"], scope: "read:guardian_factors") { tenant, _ in
            let factors = tenant.directory.read(\.factors)
            return Self.document(
                .array(
                    TenantDirectory.factorNames.map {
                        .object([
                            "name": .string($0), "enabled": .bool(factors[$0] ?? false), "trial_expired": .bool(false),
                        ])
                    }))
        },
        AdminRoute(method: "PUT", path: ["guardian", "factors", "*"], scope: "update:guardian_factors") {
            try $0.setFactor($1)
        },
        AdminRoute(method: "GET", path: ["tenants", "settings"], scope: "read:tenant_settings") { tenant, call in
            Self.document(.object(Self.selectingFields(tenant.directory.read(\.settings), call.query)))
        },
        AdminRoute(method: "PATCH", path: ["tenants", "settings"], scope: "update:tenant_settings") {
            try $0.changeSettings($1)
        },
    ]

    private func listConnections(_ call: AdminCall) -> Response {
        let connection = directory.read(\.connection)
        let matches = ["name", "strategy"].allSatisfy { key in
            call.query[key].map { connection[key]?.string == $0 } ?? true
        }
        return Self.document(.array(matches ? [.object(connection)] : []))
    }

    private func connectionID(_ call: AdminCall) throws(ManagementRefusal) {
        guard directory.read({ $0.connection["id"]?.string }) == call.parameters[0] else {
            throw Self.inexistent("connection", code: "inexistent_connection")
        }
    }

    private func connectionClients(_ call: AdminCall) throws(ManagementRefusal) -> Response {
        try connectionID(call)
        let clients = directory.read(\.connectionClients)
        return Self.document(.object(["clients": .array(clients.map { .object(["client_id": .string($0)]) })]))
    }

    private func enableConnection(_ call: AdminCall) throws(ManagementRefusal) -> Response {
        try connectionID(call)
        let changes = try call.body(ManagementShapes.connectionClients).array ?? []
        guard changes.count <= 50 else {
            throw ManagementRefusal(response: Self.invalidPayload("'Array is too long (\(changes.count)), maximum 50'"))
        }
        try changing { (objects) throws(ManagementRefusal) in
            for change in changes {
                let id = change["client_id"]?.string ?? ""
                guard objects.clients.contains(where: { $0["client_id"]?.string == id }) else {
                    throw Self.inexistent("client", code: "inexistent_client")
                }
                objects.connectionClients.removeAll { $0 == id }
                if change["status"]?.bool == true { objects.connectionClients.append(id) }
            }
        }
        return Response(status: 204)
    }

    private func setFactor(_ call: AdminCall) throws(ManagementRefusal) -> Response {
        let name = call.parameters[0]
        guard TenantDirectory.factorNames.contains(name) else {
            throw Self.inexistent("factor", code: "inexistent_factor")
        }
        let enabled = try call.body(ManagementShapes.factor)["enabled"]?.bool ?? false
        try changing { $0.factors[name] = enabled }
        return Self.document(.object(["enabled": .bool(enabled)]))
    }

    private func changeSettings(_ call: AdminCall) throws(ManagementRefusal) -> Response {
        let change = try call.body(ManagementShapes.tenantSettings).object ?? [:]
        let settings = try changing { (objects) throws(ManagementRefusal) -> [String: JSONValue] in
            for (key, value) in change {
                // Objects are merged a level down, as Auth0 merges the tenant's settings.
                if let inner = value.object, var existing = objects.settings[key]?.object {
                    existing.merge(inner) { $1 }
                    objects.settings[key] = .object(existing)
                } else {
                    objects.settings[key] = value
                }
            }
            return objects.settings
        }
        return Self.document(.object(settings))
    }
}
