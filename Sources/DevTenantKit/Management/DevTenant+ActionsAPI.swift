import Web

/// `/api/v2/actions`: Actions created and changed (each change builds for a moment before it can
/// be deployed, as Auth0's do), deployed, and bound to a trigger, the whole list at once. The
/// tenant runs no JavaScript: of a post-login Action's code it honours the roles statement alone
/// (`RolesAction`), while the Action is deployed and bound.
extension DevTenant {
    static let triggers = [
        "post-login", "credentials-exchange", "pre-user-registration", "post-user-registration",
        "post-change-password", "send-phone-message", "password-reset-post-challenge",
    ]

    static let actionRoutes: [AdminRoute] = [
        AdminRoute(method: "GET", path: ["actions", "actions"], scope: "read:actions") { $0.listActions($1) },
        AdminRoute(method: "POST", path: ["actions", "actions"], scope: "create:actions") { try $0.createAction($1) },
        AdminRoute(method: "GET", path: ["actions", "actions", "*"], scope: "read:actions") { try $0.readAction($1) },
        AdminRoute(method: "PATCH", path: ["actions", "actions", "*"], scope: "update:actions") {
            try $0.updateAction($1)
        },
        AdminRoute(method: "POST", path: ["actions", "actions", "*", "deploy"], scope: "create:actions") {
            try $0.deployAction($1)
        },
        AdminRoute(method: "GET", path: ["actions", "triggers", "*", "bindings"], scope: "read:actions") {
            try $0.listBindings($1)
        },
        AdminRoute(method: "PATCH", path: ["actions", "triggers", "*", "bindings"], scope: "update:actions") {
            try $0.replaceBindings($1)
        },
    ]

    /// An Action as the API shows it: built once its build time has passed.
    private func shownAction(_ action: [String: JSONValue]) -> [String: JSONValue] {
        var shown = action.filter { !$0.key.hasPrefix("__") }
        if shown["status"]?.string == "pending", (action["__built_at"]?.number ?? 0) <= now() {
            shown["status"] = "built"
        }
        return shown
    }

    private func listActions(_ call: AdminCall) -> Response {
        let actions = directory.read(\.actions).filter { action in
            (call.query["actionName"].map { action["name"]?.string == $0 } ?? true)
                && (call.query["triggerId"].map { trigger in
                    action["supported_triggers"]?.array?.contains { $0["id"]?.string == trigger } == true
                } ?? true)
        }
        return Self.document(
            .object([
                "actions": .array(actions.map { .object(shownAction($0)) }), "total": .number(Double(actions.count)),
                "page": .number(0), "per_page": .number(50),
            ]))
    }

    private func readAction(_ call: AdminCall) throws(ManagementRefusal) -> Response {
        let id = call.parameters[0]
        guard let action = directory.read({ $0.actions.first { $0["id"]?.string == id } }) else {
            throw Self.inexistent("action", code: "inexistent_action")
        }
        return Self.document(.object(shownAction(action)))
    }

    private func createAction(_ call: AdminCall) throws(ManagementRefusal) -> Response {
        var action = try call.body(ManagementShapes.actionCreate).object ?? [:]
        try Self.checkTriggers(action)
        action["id"] = .string(TenantDirectory.newUUID())
        action["code"] = action["code"] ?? ""
        action["runtime"] = action["runtime"] ?? "node22"
        building(&action)
        action["created_at"] = .string(timestamp)
        let name = action["name"]
        return try adding(
            action, to: \.actions, unless: { $0["name"] == name },
            conflict: "An action with the same name already exists.")
    }

    private func updateAction(_ call: AdminCall) throws(ManagementRefusal) -> Response {
        let id = call.parameters[0]
        let change = try call.body(ManagementShapes.actionUpdate).object ?? [:]
        try Self.checkTriggers(change)
        let updated = try updating(
            \.actions, where: { $0["id"]?.string == id }, missing: Self.inexistent("action", code: "inexistent_action")
        ) { action in
            for (field, value) in change { action[field] = value }
            building(&action)
        }
        return Self.document(.object(shownAction(updated)))
    }

    /// A new draft: pending for `DEV_TENANT_ACTION_BUILD_MS`, its changes not deployed.
    private func building(_ action: inout [String: JSONValue]) {
        action["status"] = "pending"
        action["__built_at"] = .number(now() + Double(config.actionBuildMilliseconds) / 1000)
        action["all_changes_deployed"] = .bool(false)
        action["updated_at"] = .string(timestamp)
    }

    private func deployAction(_ call: AdminCall) throws(ManagementRefusal) -> Response {
        let id = call.parameters[0]
        let now = now()
        let deployed = try changing { (objects) throws(ManagementRefusal) -> [String: JSONValue] in
            guard let index = objects.actions.firstIndex(where: { $0["id"]?.string == id }) else {
                throw Self.inexistent("action", code: "inexistent_action")
            }
            guard (objects.actions[index]["__built_at"]?.number ?? 0) <= now else {
                throw ManagementRefusal(
                    response: Self.errorBody(
                        400, "Bad Request", "A draft must be in the 'built' state before it can be deployed."))
            }
            let number = (objects.actions[index]["__version"]?.number ?? 0) + 1
            objects.actions[index]["status"] = "built"
            objects.actions[index]["all_changes_deployed"] = .bool(true)
            objects.actions[index]["__version"] = .number(number)
            objects.actions[index]["__deployed_code"] = objects.actions[index]["code"]
            return objects.actions[index]
        }
        return Self.document(
            .object([
                "id": .string(TenantDirectory.newUUID()), "action_id": .string(id), "deployed": .bool(true),
                "status": "built", "number": deployed["__version"] ?? .number(1), "code": deployed["code"] ?? "",
            ]))
    }

    private static func checkTriggers(_ action: [String: JSONValue]) throws(ManagementRefusal) {
        for trigger in action["supported_triggers"]?.array ?? [] where !triggers.contains(trigger["id"]?.string ?? "") {
            throw ManagementRefusal(
                response: invalidPayload(
                    "'No enum match for: \"\(trigger["id"]?.string ?? "")\"' on property supported_triggers"))
        }
    }

    private func listBindings(_ call: AdminCall) throws(ManagementRefusal) -> Response {
        try Self.checkTrigger(call.parameters[0])
        let bindings = call.parameters[0] == "post-login" ? directory.read(\.postLoginBindings) : []
        return Self.document(
            .object([
                "bindings": .array(bindings.map(JSONValue.object)), "total": .number(Double(bindings.count)),
                "page": .number(0), "per_page": .number(50),
            ]))
    }

    /// Replaces the trigger's whole list, as Auth0 does: each binding names a deployed Action
    /// that supports the trigger.
    private func replaceBindings(_ call: AdminCall) throws(ManagementRefusal) -> Response {
        let trigger = call.parameters[0]
        try Self.checkTrigger(trigger)
        let body = try call.body(ManagementShapes.bindings)
        let stamp = timestamp
        let bindings = try changing { (objects) throws(ManagementRefusal) -> [[String: JSONValue]] in
            var bindings: [[String: JSONValue]] = []
            for entry in body["bindings"]?.array ?? [] {
                let binding = entry.object ?? [:]
                let existing =
                    binding["ref"]?["type"]?.string == "binding_id"
                    ? objects.postLoginBindings.first { $0["id"] == binding["ref"]?["value"] } : nil
                guard let action = existing.flatMap({ objects.action(bound: $0) }) ?? objects.action(bound: binding),
                    action["__version"] != nil,
                    action["supported_triggers"]?.array?.contains(where: { $0["id"]?.string == trigger }) == true
                else {
                    throw ManagementRefusal(
                        response: Self.invalidPayload(
                            "'\(binding["ref"]?["value"]?.string ?? "") is no deployed action of the \(trigger) trigger'"
                        ))
                }
                bindings.append([
                    "id": existing?["id"] ?? .string(TenantDirectory.newUUID()), "trigger_id": .string(trigger),
                    "action": .object(["id": action["id"] ?? .null, "name": action["name"] ?? .null]),
                    "display_name": binding["display_name"] ?? action["name"] ?? .null,
                    "created_at": existing?["created_at"] ?? .string(stamp), "updated_at": .string(stamp),
                ])
            }
            if trigger == "post-login" { objects.postLoginBindings = bindings }
            return bindings
        }
        return Self.document(.object(["bindings": .array(bindings.map(JSONValue.object))]))
    }

    private static func checkTrigger(_ trigger: String) throws(ManagementRefusal) {
        guard triggers.contains(trigger) else { throw inexistent("trigger", code: "inexistent_trigger") }
    }
}
