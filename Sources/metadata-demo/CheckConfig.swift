import Auth0Web
import CurlClient
import Foundation
import Web

/// `metadata-demo check-config`: every setting checked, the templates loaded and the tenant's
/// endpoints discovered exactly as start-up discovers them, and its keys reached, and the session
/// ledger's store opened and asked once (read only); one line per problem, and a non-zero exit on any.
enum CheckConfig {
    static func run(environment: [String: String]) -> Int32 {
        let all = AllSettings(environment: environment)
        var problems = all.problems
        if let worker = all.worker {
            do { _ = try worker.loadPages() } catch { problems += error.lines }
            do { _ = try worker.ledgerStore.open().get("check-config") } catch {
                problems.append("\(worker.ledgerStore.settingName): \(error.description)")
            }
        }
        let auth0 = all.auth0
        if let auth0 { problems += reachTenant(auth0) }
        AllSettings.report(problems)
        if problems.isEmpty {
            print("ok: settings valid, templates loaded, session ledger reachable, \(auth0?.issuer ?? "") reachable")
        }
        return problems.isEmpty ? 0 : 1
    }

    /// Discovers the endpoints and fetches the JWKS they name.
    private static func reachTenant(_ settings: Auth0Settings) -> [String] {
        let http = CurlHTTPClient()
        let endpoints: TenantEndpoints
        do {
            endpoints = try TenantEndpoints.discover(
                issuer: settings.issuer, http: http, timeoutSeconds: settings.timeoutSeconds)
        } catch {
            return [error.line]
        }
        let problems = TenantLinks(settings: settings, endpoints: endpoints).problems()
        guard
            let keys = try? http.send(
                HTTPClientRequest(method: "GET", url: endpoints.jwks, timeoutSeconds: settings.timeoutSeconds)),
            keys.status == 200, JSONValue.parse(keys.body)?["keys"]?.array?.isEmpty == false
        else { return problems + ["AUTH0_DOMAIN: the tenant's signing keys (jwks_uri) could not be fetched"] }
        return problems
    }
}
