import Auth0Web
import FastCGIServer
import FoundationEssentials
import MetadataDemoApp
import Web

/// Every setting the worker reads, through one reader, so every problem in any group is reported
/// at once and `metadata-demo settings` lists exactly what was read, where from.
struct AllSettings {
    var worker: WorkerSettings?
    var relyingParty: RelyingPartySettings?
    /// The mini apps (read only once the base URL their audiences default to is known).
    var miniApps: MiniApps?
    /// The tenant set-up's own settings (`metadata-demo auth0`, check-config's tenant check).
    var tenantSetup: TenantSetupSettings?
    /// Every problem, each with the setting it is about.
    var found: [SettingProblem] = []
    /// One line per problem, naming the setting.
    var problems: [String] { found.map(\.line) }
    /// Lines worth saying that stop nothing (a former name still in use).
    var notes: [String] = []
    /// Every setting read, in order.
    var reads: [SettingRead] = []

    /// Every setting of `environment`, each labelled with its source from `origins` (`--env-file`).
    /// `serving`: the worker's own reading, which leaves the tenant set-up's settings alone (the
    /// management application's secret is root's, read by the commands run by hand).
    init(environment: [String: String], origins: [String: SettingSource] = [:], serving: Bool = false) {
        var reader = SettingsReader(environment: environment, origins: origins)
        relyingParty = RelyingPartySettings(reading: &reader)
        let miniAppsFile = reader.text(MiniApps.fileSetting)
        if let provider = relyingParty?.provider {
            do {
                let assertions = relyingParty?.assertions
                miniApps = try MiniApps(
                    file: miniAppsFile, baseURL: provider.baseURL, dialect: provider.dialect,
                    loginAudience: provider.audience,
                    siblingAudience: assertions?.keys.isEmpty == false ? assertions?.audience : nil)
            } catch {
                reader.problems(error.lines)
            }
        }
        worker = WorkerSettings.read(&reader, environment: environment)
        if !serving { tenantSetup = TenantSetupSettings.read(&reader) }
        found = reader.found.map { Self.namingComment($0, in: environment) }
        notes = reader.notes
        reads = reader.reads
    }

    /// A problem line with the likely cause added when the setting it names holds a comment
    /// after its value: systemd's EnvironmentFile= keeps `v2   # or oidc` whole, so the journal
    /// says so as check-config does, not only that the value is wrong.
    static func namingComment(_ problem: SettingProblem, in environment: [String: String]) -> SettingProblem {
        guard let name = problem.setting, let value = environment[name], EnvironmentFile.holdsTrailingComment(value)
        else { return problem }
        return SettingProblem(
            name,
            problem.text + " (the value holds a comment after it, which systemd keeps as part of the value: "
                + "put comments on lines of their own)")
    }

    /// Writes each problem as one line on standard error, and the first as the service's status
    /// line (the unit's own line in `systemctl status`, for a worker about to exit with status 2:
    /// "Job … canceled" alone said nothing of why).
    static func report(_ problems: [String]) {
        for line in problems { Output.problem(line) }
        guard let first = problems.first else { return }
        let more = problems.count > 1 ? " (and \(problems.count - 1) more: see the journal)" : ""
        FastCGIServer.reportFinalStatus("stopped, a setting is wrong: " + first + more)
    }
}
