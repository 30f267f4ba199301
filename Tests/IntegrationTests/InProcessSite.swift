import Auth0Web
import DevTenantKit
import Foundation
import MetadataDemoApp
import TestSupport
import Web

/// The product and the dev tenant answered in this process, no sockets: the worker's pipeline
/// (`MetadataDemo` and its services as the worker builds them, the ledger in memory and read by
/// this one process) and the `DevTenant` a `Stack` runs, with the settings `scripts/dev-env.sh`
/// gives both, meeting through an `InProcessNetwork`. A suite runs here in a fraction of a `Stack`'s time, and the same suite
/// through nginx proves the parts this leaves out (FastCGI, nginx, libcurl, processes).
final class InProcessSite: TestSite, @unchecked Sendable {
    // Addresses nothing listens on: the network answers them.
    let baseURL = "http://127.0.0.1:9"
    let tenantURL = "http://127.0.0.1:7"
    let runDir: String
    let network = InProcessNetwork()
    private let devEnvironment: [String: String]

    init(workerEnvironment: [String: String] = [:], tenantEnvironment: [String: String] = [:]) throws {
        runDir = NSTemporaryDirectory() + "metadata-demo-in-process-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: runDir, withIntermediateDirectories: true)
        devEnvironment = try Stack.devEnvironment(runDir: runDir, appPort: 9, tenantPort: 7)
        try restartTenant(tenantEnvironment)
        let settings = try RelyingPartySettings(environment: devEnvironment.merging(workerEnvironment) { $1 })
        let services = try AppServices(
            settings: settings, endpoints: .documented(issuer: tenantURL + "/"), http: network,
            store: MemorySharedStore(), log: Log(minimum: .error))
        let pages = try LocalizedPages(directory: Stack.repoRoot + "/Templates")
        network.serve(baseURL, with: MetadataDemo(pages: pages, services: services, log: Log(minimum: .error)))
    }

    deinit {
        network.closeAll()  // the product and the tenant hold the network that holds them
        try? FileManager.default.removeItem(atPath: runDir)
    }

    func browser() -> TestClient { TestClient(http: network) }

    /// Starts the tenant again (its state file and key kept) with `extra` on top of what every
    /// test tenant has, as `Stack.restartTenant` does.
    func restartTenant(_ extra: [String: String]) throws {
        let environment = devEnvironment.merging(Stack.tenantDefaults) { $1 }.merging(extra) { $1 }
        let tenant = try DevTenant(
            config: TenantConfig(environment: environment), log: Log(minimum: .error), http: network)
        network.serve(tenantURL, with: tenant)
    }

    func tenantRequests(path: String, status: Int?) throws -> Int {
        network.answered(by: tenantURL).filter { $0.path.hasPrefix(path) && (status == nil || $0.status == status) }
            .count
    }

    func metric(_ name: String) throws -> Double {
        let text = try browser().get(baseURL + "/metrics").body
        return Stack.sum(of: name, inMetrics: text)
    }
}
