import FoundationEssentials
import Locking
import Web

/// Makes the tenant hold what the survey found missing, in dependency order: the APIs, the
/// application, its keys and their references, the connection, the grants, the roles Action and
/// its binding, the MFA factor, the tenant's settings. Only what differs is written.
extension TenantSetup {
    /// What `apply()` made that the site's settings must record: a new application's id and secret.
    public struct Created: Sendable {
        /// The new application's client id.
        public let clientID: String
        /// Its secret, which only this answer shows.
        public let clientSecret: String?
    }

    /// The write scopes `apply()` will use, given what the survey found.
    var writeScopes: [String] {
        var scopes: Set<String> = []
        for change in changes where change.kind != .unchanged {
            switch change.object {
            case let object where object.hasPrefix("API "):
                scopes.insert(change.kind == .create ? "create:resource_servers" : "update:resource_servers")
            case let object where object.hasPrefix("application "):
                scopes.insert(change.kind == .create ? "create:clients" : "update:clients")
            case let object where object.contains(" key "):
                scopes.formUnion(["create:client_credentials", "update:clients"])
            case let object where object.hasPrefix("connection "): scopes.insert("update:connections")
            case let object where object.hasPrefix("user access "):
                scopes.insert(change.kind == .create ? "create:client_grants" : "update:client_grants")
            case let object where object.hasPrefix("Action "): scopes.formUnion(["create:actions", "update:actions"])
            case let object where object.hasPrefix("post-login "): scopes.insert("update:actions")
            case let object where object.hasPrefix("MFA "): scopes.insert("update:guardian_factors")
            default: scopes.insert("update:tenant_settings")
            }
        }
        return scopes.sorted()
    }

    /// Applies every change, reporting each as it is made through `say`, and a new application's
    /// credentials to `record` as soon as it is made (before anything else can fail). Stops before
    /// the first write when a scope is missing.
    public func apply(say: (String) -> Void, record: (Created) throws -> Void) throws {
        try session.require(writeScopes)
        for (index, api) in blueprint.apis.enumerated() {
            let needs = TenantBlueprint.needs(of: api)
            if let document = apis[index] {
                try patch("resource-servers/" + Self.encoded(api.audience), document, needs, say, "API \(api.audience)")
            } else {
                var created: [String: JSONValue] = [
                    "name": .string(api.audience), "identifier": .string(api.audience), "signing_alg": "RS256",
                    "skip_consent_for_verifiable_first_party_clients": .bool(true),
                    "scopes": .array(api.scopes.map { .object(["value": .string($0), "description": .string($0)]) }),
                ]
                for need in needs.dropFirst() { created = need.met(in: created) }
                apis[index] = try session.send("POST", "resource-servers", .object(created))
                say("created API \(api.audience)")
            }
        }
        try applyApplication(say, record)
        try applyAccess(say)
        try applyRoles(say)
        if blueprint.needsOTP, !otpEnabled {
            try session.send("PUT", "guardian/factors/otp", .object(["enabled": .bool(true)]))
            otpEnabled = true
            say("enabled MFA factor otp")
        }
        if let document = settings.object, !blueprint.tenantSettings.isEmpty {
            let wanted = blueprint.tenantSettings.reduce(document) { $1.met(in: $0) }
            if wanted != document {
                let changed = wanted.filter { document[$0.key] != $0.value }
                settings = try session.send("PATCH", "tenants/settings", .object(changed))
                say("changed tenant settings: " + changed.keys.sorted().joined(separator: ", "))
            }
        }
    }

    /// The application made or changed, then its keys added and named.
    private func applyApplication(_ say: (String) -> Void, _ record: (Created) throws -> Void) throws {
        let name = "application \(blueprint.applicationName)"
        if application == nil {
            // What needs its keys (`applicationOnceKeyed`) waits for them.
            var document: [String: JSONValue] = ["name": .string(blueprint.applicationName)]
            for need in blueprint.application { document = need.met(in: document) }
            let made = try session.send("POST", "clients", .object(document))
            guard let id = made["client_id"]?.string else {
                throw ManagementSession.Failure(description: "AUTH0: the new application came back without a client_id")
            }
            application = made
            say("created \(name) (client id \(id))")
            try record(Created(clientID: id, clientSecret: made["client_secret"]?.string))
        }
        guard let clientID else { return }
        for (key, purpose) in keys where credentialIDs[key.kid] == nil {
            let credential = try session.send(
                "POST", "clients/\(Self.encoded(clientID))/credentials",
                .object([
                    "credential_type": "public_key", "name": .string("metadata-demo \(purpose) \(key.kid.prefix(8))"),
                    "pem": .string(key.pem), "alg": .string(key.algorithm),
                ]))
            credentialIDs[key.kid] = credential["id"]?.string
            say("added the \(purpose) key \(key.kid) to the \(name)")
        }
        if let document = application {
            try patch("clients/" + Self.encoded(clientID), document, applicationNeeds, say, name)
        }
    }

    /// The connection enabled for the application, and its users' grants.
    private func applyAccess(_ say: (String) -> Void) throws(ManagementSession.Failure) {
        guard let clientID else { return }
        if !connectionEnabled {
            try session.send(
                "PATCH", "connections/\(Self.encoded(connectionID))/clients",
                .array([.object(["client_id": .string(clientID), "status": .bool(true)])]))
            connectionEnabled = true
            say("enabled connection \(blueprint.connectionName) for the application")
        }
        for (index, grant) in blueprint.userGrants.enumerated() {
            let need = FieldNeed.includes(["scope"], grant.scopes.map(JSONValue.string))
            if let document = grants[index] {
                guard need.shortfall(in: document) != nil, let id = document["id"]?.string else { continue }
                let scope = need.met(in: document.object ?? [:])["scope"] ?? .array([])
                grants[index] = try session.send(
                    "PATCH", "client-grants/" + Self.encoded(id), .object(["scope": scope]))
                say("changed user access to \(grant.audience): scope \(FieldNeed.describe(scope))")
            } else {
                grants[index] = try session.send(
                    "POST", "client-grants",
                    .object([
                        "client_id": .string(clientID), "audience": .string(grant.audience),
                        "scope": .array(grant.scopes.map(JSONValue.string)), "subject_type": "user",
                    ]))
                say("granted the application's users \(grant.scopes.joined(separator: " ")) at \(grant.audience)")
            }
        }
    }

    /// The roles Action made, changed or deployed, and bound to the post-login trigger beside
    /// whatever else is bound there.
    private func applyRoles(_ say: (String) -> Void) throws(ManagementSession.Failure) {
        guard let (name, code) = blueprint.rolesAction else { return }
        if action == nil {
            action = try session.send(
                "POST", "actions/actions",
                .object([
                    "name": .string(name), "code": .string(code), "runtime": "node22",
                    "supported_triggers": .array([.object(["id": "post-login", "version": "v3"])]),
                ]))
            say("created Action \(name)")
        } else if action?["code"]?.string != code, let id = action?["id"]?.string {
            action = try session.send("PATCH", "actions/actions/" + Self.encoded(id), .object(["code": .string(code)]))
            say("changed Action \(name)")
        }
        if action?["all_changes_deployed"]?.bool != true, let id = action?["id"]?.string {
            try deploy(id)
            say("deployed Action \(name)")
        }
        guard !isBound else { return }
        var list: [JSONValue] = bindings.compactMap { binding in
            binding["id"].map {
                .object([
                    "ref": .object(["type": "binding_id", "value": $0]),
                    "display_name": binding["display_name"] ?? .string(""),
                ])
            }
        }
        list.append(
            .object(["ref": .object(["type": "action_name", "value": .string(name)]), "display_name": .string(name)]))
        bindings =
            try session.send("PATCH", "actions/triggers/post-login/bindings", .object(["bindings": .array(list)]))[
                "bindings"]?.array ?? []
        say("bound Action \(name) to the post-login trigger (after \(list.count - 1) already bound)")
    }

    /// Deploys an Action once it has built, asking again while it builds (a minute at most).
    private func deploy(_ id: String) throws(ManagementSession.Failure) {
        let deadline = Date().addingTimeInterval(60)
        while true {
            let status = try session.get("actions/actions/" + Self.encoded(id))?["status"]?.string
            if status == "built" {
                try session.send("POST", "actions/actions/\(Self.encoded(id))/deploy", .object([:]))
                action = try session.get("actions/actions/" + Self.encoded(id))
                return
            }
            if status == "failed" || Date() > deadline {
                throw ManagementSession.Failure(
                    description: "AUTH0: the Action \(id) did not build (status \(status ?? "unknown"))")
            }
            Threads.sleep(seconds: 0.5)
        }
    }

    /// PATCHes the top-level fields of `document` that `needs` change, when any do.
    private func patch(
        _ path: String, _ document: JSONValue, _ needs: [FieldNeed], _ say: (String) -> Void, _ object: String
    ) throws(ManagementSession.Failure) {
        let held = document.object ?? [:]
        let wanted = needs.reduce(held) { $1.met(in: $0) }
        let changed = wanted.filter { held[$0.key] ?? .null != $0.value }
        guard !changed.isEmpty else { return }
        try session.send("PATCH", path, .object(changed))
        say("changed \(object): " + changed.keys.sorted().joined(separator: ", "))
    }
}
