import Auth0Web
import FastCGIServer
import FoundationEssentials
import Glibc
import Locking
import Web

/// The tenant's endpoints, from its discovery document. A tenant that gives no answer (or a 5xx)
/// is not the operator's mistake: it, the network or the local nginx in front of the dev tenant
/// may come up after the worker, so it is asked again; a wrong answer (another issuer, an
/// endpoint missing) is a wrong setting and stops at once.
enum StartupDiscovery {
    /// How long start-up asks before serving the "Auth0 unreachable" page meanwhile, in seconds:
    /// long enough for the local nginx and dev tenant starting beside it on a loaded machine.
    static let patience: Double = 15
    /// The longest pause between two tries once the worker serves without the tenant.
    static let longestPause: Double = 10

    /// The endpoints, asking again while the tenant is unreachable, up to `patience` seconds.
    static func endpoints(
        for settings: RelyingPartySettings, http: any HTTPClient, log: Log, patience: Double = patience
    )
        throws(DiscoveryProblem) -> TenantEndpoints
    {
        let deadline = Date().addingTimeInterval(patience)
        while true {
            do {
                return try TenantEndpoints.discover(
                    issuer: settings.issuer, http: http, timeoutSeconds: settings.provider.timeoutSeconds,
                    setting: settings.provider.issuerSetting)
            } catch  where error.transient && Date() < deadline {
                log(.warning, "tenant discovery failed; trying again", ["error": error.reason])
                FastCGIServer.reportStatus(
                    "starting: \(settings.provider.name) does not answer yet (\(error.reason)); asking again for up to "
                        + "\(Int(patience)) s")
                Threads.sleep(seconds: 0.5)
            }
        }
    }

    /// The endpoints, asking until the tenant answers: after 1 s, then a second longer each time
    /// up to `longestPause`. Throws only for a wrong answer.
    static func waitForTenant(for settings: RelyingPartySettings, http: any HTTPClient, log: Log)
        throws(DiscoveryProblem)
        -> TenantEndpoints
    {
        var pause: Double = 1
        while true {
            Threads.sleep(seconds: pause)
            do {
                return try TenantEndpoints.discover(
                    issuer: settings.issuer, http: http, timeoutSeconds: settings.provider.timeoutSeconds,
                    setting: settings.provider.issuerSetting)
            } catch  where error.transient {
                log(.debug, "tenant still unreachable", ["error": error.reason])
                pause = min(pause + 1, longestPause)
            }
        }
    }
}
