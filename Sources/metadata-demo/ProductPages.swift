import Auth0Web
import MetadataDemoApp
import Web

extension WorkerSettings {
    /// The product's pages from `TEMPLATES_DIR` and `PUBLIC_DIR`, as the worker serves them:
    /// a folder that cannot be read, a broken template or a missing one is a problem naming its
    /// setting. `check-config` loads them the same way, so it passes only when start-up would.
    func loadPages(provider: String = "Auth0") throws(SettingsProblems) -> LocalizedPages {
        let assets: StaticAssets
        do {
            assets = try StaticAssets(directory: publicDirectory)
        } catch {
            throw SettingsProblems(lines: ["PUBLIC_DIR: cannot read \(publicDirectory)"])
        }
        do {
            return try LocalizedPages(directory: templatesDirectory, assets: assets, provider: provider)
        } catch {
            throw SettingsProblems(lines: ["TEMPLATES_DIR: \(error)"])
        }
    }
}
