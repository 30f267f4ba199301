import Auth0Web
import CurlClient
import FoundationEssentials
import MetadataDemoApp
import Web

/// `metadata-demo [--env-file FILE] auth0 plan|apply`: what the Auth0 tenant must hold for this
/// site (its settings and mini apps), compared with what it holds, and (apply) made so. Works
/// before the application exists: without `AUTH0_CLIENT_ID` it is found by its name, or made,
/// its new id then written into the settings file and its secret into the secret's file.
enum Auth0Command {
    static let usage = "usage: metadata-demo [--env-file FILE] auth0 plan|apply"

    static func run(_ arguments: [String], environment: [String: String], envFile: EnvFileOption.Read) -> Int32 {
        guard let verb = arguments.first, ["plan", "apply"].contains(verb), arguments.count == 1 else {
            Output.problem(usage)
            return 2
        }
        guard envFile.problems.isEmpty else {
            AllSettings.report(envFile.problems)
            return 2
        }
        // Before the application exists its id and secret are not needed: stand-ins let the rest be read.
        var environment = environment
        let given = environment["AUTH0_CLIENT_ID"].map { $0.trimmingWhitespace() } ?? ""
        let clientIDKnown = !given.isEmpty && given != "your-client-id"
        if !clientIDKnown { environment["AUTH0_CLIENT_ID"] = "not-yet-at-the-tenant" }
        // Nor is its secret ever: the service reads it (a systemd credential) and the command does not.
        if environment["AUTH0_CLIENT_SECRET"] == nil { environment["AUTH0_CLIENT_SECRET"] = "not-read-by-this-command" }
        let all = AllSettings(environment: environment)
        guard all.problems.isEmpty, let auth0 = all.relyingParty, let miniApps = all.miniApps,
            let setup = all.tenantSetup
        else {
            AllSettings.report(all.problems)
            return 2
        }
        do {
            let tenant = try survey(auth0, setup, miniApps: miniApps, clientIDKnown: clientIDKnown)
            printPlan(tenant, auth0)
            guard verb == "apply" else {
                if !tenant.isSettled { print("`metadata-demo auth0 apply` makes it so.") }
                return 0
            }
            // An application found by its name is this site's from now on: its id goes into the file.
            if !clientIDKnown, let found = tenant.clientID, let path = envFile.path {
                try SettingsFileEdit.set("AUTH0_CLIENT_ID", to: found, in: path)
                print("  wrote AUTH0_CLIENT_ID=\(found) into \(path)")
            }
            guard !tenant.isSettled else {
                print("nothing to change")
                return 0
            }
            if tenant.clientID == nil, envFile.path == nil {
                throw ManagementSession.Failure(
                    description:
                        "--env-file: making the application needs the settings file its client id is written into")
            }
            try tenant.apply(say: { print("  " + $0) }) {
                try record($0, envFile: envFile.path!, environment: environment)
            }
            print("done: \(tenant.session.writes) write calls")
            return 0
        } catch let failure as ManagementSession.Failure {
            AllSettings.report([failure.description])
            return 1
        } catch {
            AllSettings.report(["AUTH0: \(error)"])
            return 1
        }
    }

    /// Each object as found (create, change with its fields, or ok), and how many of each.
    private static func printPlan(_ tenant: TenantSetup, _ auth0: RelyingPartySettings) {
        print("Auth0 tenant \(auth0.issuer), as the site at \(auth0.baseURL) needs it:")
        for change in tenant.changes { print(change.lines.map { "  " + $0 }.joined(separator: "\n")) }
        let counts = Dictionary(grouping: tenant.changes, by: \.kind).mapValues(\.count)
        print(
            "\(counts[.create] ?? 0) to create, \(counts[.change] ?? 0) to change, "
                + "\(counts[.unchanged] ?? 0) as needed; nothing is ever deleted.")
    }

    /// The tenant as it is, against what `auth0` and `miniApps` need; fails naming a setting.
    static func survey(
        _ auth0: RelyingPartySettings, _ setup: TenantSetupSettings, miniApps: MiniApps, clientIDKnown: Bool
    ) throws -> TenantSetup {
        guard auth0.provider.dialect == .auth0 else {
            throw ManagementSession.Failure(
                description: "OIDC_PROVIDER: the provider is not Auth0; set it up by its own means")
        }
        guard let management = setup.management else {
            throw ManagementSession.Failure(
                description:
                    "AUTH0_MANAGEMENT_CLIENT_ID: not set: make a Machine to Machine application with access to the "
                    + "Auth0 Management API (deploy/README.md, step 3) and set its id and secret")
        }
        let blueprint = try TenantBlueprint(
            settings: auth0, clientIDKnown: clientIDKnown, applicationName: setup.applicationName,
            miniApps: needs(of: miniApps))
        let session = try ManagementSession(
            issuerBase: auth0.issuerBase, managementAudience: auth0.managementAPI, clientID: management.clientID,
            secret: management.secret, http: CurlHTTPClient(), timeoutSeconds: auth0.provider.timeoutSeconds)
        let tenant = TenantSetup(blueprint: blueprint, session: session)
        try tenant.survey()
        return tenant
    }

    /// What the mini apps need of the tenant: their APIs (one per audience, scopes joined), the
    /// roles claim their rules read, and whether any asks a second factor.
    static func needs(of miniApps: MiniApps) -> TenantBlueprint.MiniAppNeeds {
        var apis: [TenantBlueprint.API] = []
        for app in miniApps.apps {
            guard let api = app.api else { continue }
            let permissions = app.rules.contains { $0.kind == .permissions }
            if let index = apis.firstIndex(where: { $0.audience == api.audience }) {
                let known = apis[index]
                apis[index] = TenantBlueprint.API(
                    audience: known.audience, scopes: known.scopes + api.scopes.filter { !known.scopes.contains($0) },
                    permissionsInTokens: known.permissionsInTokens || permissions)
            } else {
                apis.append(
                    TenantBlueprint.API(audience: api.audience, scopes: api.scopes, permissionsInTokens: permissions))
            }
        }
        return TenantBlueprint.MiniAppNeeds(
            apis: apis, rolesClaim: miniApps.rolesClaim, secondFactor: miniApps.apps.contains(where: \.asksSecondFactor)
        )
    }

    /// Writes a new application's id into the settings file and its secret where the site reads it:
    /// `AUTH0_CLIENT_SECRET_FILE`, else the file `client-secret` beside the settings file (mode 0600).
    private static func record(_ created: TenantSetup.Created, envFile: String, environment: [String: String]) throws {
        try SettingsFileEdit.set("AUTH0_CLIENT_ID", to: created.clientID, in: envFile)
        print("  wrote AUTH0_CLIENT_ID=\(created.clientID) into \(envFile)")
        guard let secret = created.clientSecret else { return }
        let path =
            environment["AUTH0_CLIENT_SECRET_FILE"]
            ?? URL(fileURLWithPath: envFile).deletingLastPathComponent().appendingPathComponent("client-secret").path
        try AtomicFile.write(Array((secret + "\n").utf8), to: path, mode: 0o600)
        print("  wrote the application's secret into \(path) (mode 0600)")
    }
}
