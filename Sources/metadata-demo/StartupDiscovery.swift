import Auth0Web
import Foundation
import Web

/// The tenant's endpoints, discovered before the worker serves anything. When the tenant gives
/// no answer (or a 5xx) it is asked again for a while, since it, the network or the local nginx
/// in front of the dev tenant may come up after the worker; a wrong answer stops at once.
enum StartupDiscovery {
    /// How long start-up keeps asking, in seconds.
    static let patience: Double = 30

    static func endpoints(for settings: Auth0Settings, http: any HTTPClient, log: Log) throws(DiscoveryProblem)
        -> TenantEndpoints
    {
        let deadline = Date().addingTimeInterval(patience)
        while true {
            do {
                return try TenantEndpoints.discover(
                    issuer: settings.issuer, http: http, timeoutSeconds: settings.timeoutSeconds)
            } catch  where error.transient && Date() < deadline {
                log(.warning, "tenant discovery failed; trying again", ["error": error.reason])
                Thread.sleep(forTimeInterval: 0.5)
            }
        }
    }
}
