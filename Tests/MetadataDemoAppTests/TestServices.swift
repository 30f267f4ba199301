import Auth0Web
import Foundation
import MetadataDemoApp
import TestSupport
import Web

/// The product's services over a scripted tenant, with the shared test settings and a session
/// ledger in a fresh in-memory store of its own.
enum TestServices {
    static func make(
        http: any HTTPClient = ScriptedHTTPClient(), clock: Clock = .system, extra: [String: String?] = [:],
        miniApps: MiniApps = MiniApps(), store: MemorySharedStore? = nil
    ) throws -> AppServices {
        // In memory: the contract suite holds it to SQLite's and Redis's promises.
        let store = store ?? MemorySharedStore(clock: clock)
        let settings =
            extra.isEmpty ? TestSettings.auth0 : try RelyingPartySettings(environment: TestSettings.environment(extra))
        return try AppServices(
            settings: settings, endpoints: TestSettings.endpoints, http: http, store: store, clock: clock,
            miniApps: miniApps)
    }

    /// The product with its real templates over a scripted tenant.
    static func app(http: any HTTPClient = ScriptedHTTPClient(), clock: Clock = .system) throws -> MetadataDemo {
        let pages = try LocalizedPages(directory: MetadataDemoTests.templatesDirectory)
        return MetadataDemo(pages: pages, services: try make(http: http, clock: clock), log: Log(minimum: .error))
    }
}
