import Auth0Web
import FastCGIServer
import FoundationEssentials
import Glibc
import MetadataDemoApp
import Web

/// What the product is built from once the tenant's endpoints are known: at start, or later
/// when a tenant unreachable at start first answers.
struct ProductWiring: Sendable {
    let auth0: RelyingPartySettings
    let miniApps: MiniApps
    let pages: LocalizedPages
    let http: any HTTPClient
    let store: any SharedStore
    let log: Log

    /// The product for the tenant at `endpoints`, following the session ledger. A tenant whose
    /// links would be wrong is a wrong setting: exit 2, one line each.
    func app(for endpoints: TenantEndpoints) -> MetadataDemo {
        let linkProblems = ProviderFit.problems(auth0, endpoints)
        guard linkProblems.isEmpty else {
            AllSettings.report(linkProblems)
            _exit(2)
        }
        do {
            let services = try AppServices(
                settings: auth0, endpoints: endpoints, http: http, store: store, log: log, miniApps: miniApps,
                status: FastCGIServer.reportStatus)
            services.ledger.startFollowing()
            return MetadataDemo(pages: pages, services: services, log: log)
        } catch {
            Output.problem("\(error)")
            _exit(1)
        }
    }
}
