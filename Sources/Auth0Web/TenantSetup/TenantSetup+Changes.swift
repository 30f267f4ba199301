import Web

/// What the survey found against what the site needs, object by object.
extension TenantSetup {
    /// Every object of the blueprint: to create, to change (field by field), or as needed.
    public var changes: [TenantChange] {
        var changes: [TenantChange] = []
        for (api, document) in zip(blueprint.apis, apis) {
            changes.append(
                change(
                    "API \(api.audience)", document, TenantBlueprint.needs(of: api),
                    dashboard: "Applications > APIs > \(api.audience)"))
        }
        let name = "application \(blueprint.applicationName)"
        let settingsPath = "Applications > Applications > \(blueprint.applicationName) > Settings"
        for (key, purpose) in keys where credentialIDs[key.kid] == nil {
            changes.append(
                TenantChange(
                    .create, "\(purpose) key \(key.kid) of the \(name)",
                    dashboard: "Applications > Applications > \(blueprint.applicationName) > Credentials"))
        }
        var application = change(name, self.application, applicationNeeds, dashboard: settingsPath)
        if self.application != nil {
            let waiting = keyReferencesWaiting
            if !waiting.isEmpty {
                application = TenantChange(
                    .change, name, details: application.details + waiting, dashboard: settingsPath)
            }
        }
        changes.append(application)
        changes.append(
            TenantChange(
                connectionEnabled ? .unchanged : .change, "connection \(blueprint.connectionName)",
                details: connectionEnabled ? [] : ["not enabled for the \(name)"],
                dashboard: "Authentication > Database > \(blueprint.connectionName) > Applications"))
        for (grant, document) in zip(blueprint.userGrants, grants) {
            changes.append(
                change(
                    "user access of the \(name) to \(grant.audience)", document,
                    [.includes(["scope"], grant.scopes.map(JSONValue.string))],
                    dashboard: "Applications > APIs > \(grant.audience) > Application Access > User Access"))
        }
        if let (actionName, code) = blueprint.rolesAction {
            var details: [String] = []
            if let action, action["code"]?.string != code {
                details.append("code: not the roles statement this site needs")
            }
            if let action, action["all_changes_deployed"]?.bool != true { details.append("not deployed") }
            changes.append(
                TenantChange(
                    action == nil ? .create : details.isEmpty ? .unchanged : .change, "Action \(actionName)",
                    details: details, dashboard: "Actions > Library > \(actionName)"))
            changes.append(
                TenantChange(
                    isBound ? .unchanged : .change, "post-login trigger",
                    details: isBound ? [] : ["bindings lack \(actionName)"],
                    dashboard: "Actions > Triggers > post-login"))
        }
        if blueprint.needsOTP {
            changes.append(
                TenantChange(
                    otpEnabled ? .unchanged : .change, "MFA factor otp",
                    details: otpEnabled ? [] : ["enabled: false -> true"],
                    dashboard: "Security > Multi-factor Auth > One-time Password"))
        }
        if !blueprint.tenantSettings.isEmpty {
            var found = change(
                "tenant settings", settings, blueprint.tenantSettings,
                dashboard: "Settings > Advanced > Login and Logout")
            if found.kind == .create { found = TenantChange(.unchanged, found.object, dashboard: found.dashboard) }
            changes.append(found)
        }
        return changes
    }

    /// True when nothing is to be created or changed.
    public var isSettled: Bool { changes.allSatisfy { $0.kind == .unchanged } }

    /// The application's keys and what each is for.
    var keys: [(key: TenantBlueprint.Key, purpose: String)] {
        blueprint.assertionKeys.map { ($0, "Private Key JWT") }
            + blueprint.requestObjectKeys.map { ($0, "request object") }
    }

    /// The application's needs, its keys' references among them once the keys are there.
    var applicationNeeds: [FieldNeed] {
        var needs = blueprint.application
        let assertion = blueprint.assertionKeys.compactMap { credentialIDs[$0.kid] }
        if !assertion.isEmpty {
            needs.append(
                .includes(
                    ["client_authentication_methods", "private_key_jwt", "credentials"],
                    assertion.map { .object(["id": .string($0)]) }, key: "id"))
        }
        let signing = blueprint.requestObjectKeys.compactMap { credentialIDs[$0.kid] }
        if !signing.isEmpty {
            needs.append(
                .includes(
                    ["signed_request_object", "credentials"], signing.map { .object(["id": .string($0)]) }, key: "id"))
        }
        return needs + blueprint.applicationOnceKeyed
    }

    /// The keys the application will name once they are added.
    private var keyReferencesWaiting: [String] {
        keys.filter { credentialIDs[$0.key.kid] == nil }.map { "credentials lack the \($0.purpose) key \($0.key.kid)" }
    }

    /// True when the post-login trigger runs the roles Action.
    var isBound: Bool {
        guard let (name, _) = blueprint.rolesAction else { return true }
        return bindings.contains { $0["action"]?["name"]?.string == name || $0["display_name"]?.string == name }
    }

    private func change(_ object: String, _ document: JSONValue?, _ needs: [FieldNeed], dashboard: String)
        -> TenantChange
    {
        guard let document else { return TenantChange(.create, object, dashboard: dashboard) }
        let details = needs.compactMap { $0.shortfall(in: document) }
        return TenantChange(details.isEmpty ? .unchanged : .change, object, details: details, dashboard: dashboard)
    }
}
