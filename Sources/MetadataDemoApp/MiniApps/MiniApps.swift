import Auth0Web
import FoundationEssentials
public import Web

/// The mini apps of `MINI_APPS_FILE`, read once at start-up (and by `check-config`, the same
/// way) and checked whole: every problem at once, one line each naming the app and the key.
/// No file: no mini apps, and the product behaves as it did without them.
public struct MiniApps: Sendable {
    /// The apps, in the file's order.
    public let apps: [MiniApp]
    /// The ID token's claim that lists roles, when a rule reads roles.
    public let rolesClaim: String?
    /// The file they were read from (`MINI_APPS_FILE`), to name where an app is missing from.
    public private(set) var file: String?

    /// No mini apps.
    public init() {
        apps = []
        rolesClaim = nil
    }

    /// These apps, reading roles from `rolesClaim`.
    public init(apps: [MiniApp], rolesClaim: String? = nil) {
        self.apps = apps
        self.rolesClaim = rolesClaim
    }

    /// The app called `name`.
    public func app(named name: String) -> MiniApp? { apps.first { $0.name == name } }

    /// What sessions must keep for these apps' rules.
    public var ruleFacts: RuleFacts {
        var flags: [String] = []
        for case .appMetadataFlag(let flag) in apps.flatMap(\.rules) where !flags.contains(flag) { flags.append(flag) }
        return RuleFacts(appMetadataFlags: flags, rolesClaim: rolesClaim)
    }

    /// The setting that names the file.
    public static let fileSetting = Setting(
        "MINI_APPS_FILE", "the mini apps: who may enter each and the API token it gets (JSON)")

    /// The apps of the file `environment` names in `MINI_APPS_FILE` (see `init(file:)`).
    public init(
        environment: [String: String], baseURL: String, dialect: ProviderDialect = .auth0, loginAudience: String? = nil,
        siblingAudience: String? = nil
    )
        throws(SettingsProblems)
    {
        var reader = SettingsReader(environment: environment)
        try self.init(
            file: reader.text(Self.fileSetting), baseURL: baseURL, dialect: dialect, loginAudience: loginAudience,
            siblingAudience: siblingAudience)
    }

    /// The apps of the file at `path` (none without one), whose assertions default to `baseURL`
    /// with the app's path; an API other than `loginAudience` needs a provider whose `dialect` issues tokens for other APIs.
    /// No two apps, nor an app and the sibling app under /mini/ (`siblingAudience`, when identity
    /// assertions are signed), may share an assertion audience: an assertion for one would open the other.
    /// Throws `SettingsProblems`, every problem at once.
    public init(
        file path: String?, baseURL: String, dialect: ProviderDialect = .auth0, loginAudience: String? = nil,
        siblingAudience: String? = nil
    )
        throws(SettingsProblems)
    {
        guard let path else {
            self.init()
            return
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw SettingsProblems(lines: ["\(Self.fileSetting.name): cannot read \(path)"])
        }
        let document: JSONValue
        do { document = try JSONValue.decode(Array(data)) } catch {
            throw SettingsProblems(lines: ["\(Self.fileSetting.name): \(path) is not JSON (\(error))"])
        }
        var reader = MiniAppsReader(
            baseURL: baseURL, dialect: dialect, loginAudience: loginAudience, siblingAudience: siblingAudience)
        let apps = reader.read(document)
        guard reader.problems.isEmpty else {
            throw SettingsProblems(lines: reader.problems.map { "\(Self.fileSetting.name): \($0)" })
        }
        self.init(apps: apps, rolesClaim: reader.rolesClaim)
        file = path
    }
}
