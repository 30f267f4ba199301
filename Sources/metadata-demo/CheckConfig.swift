import Auth0Web
import CurlClient
import Foundation
import Web

/// `metadata-demo check-config`: every setting checked, the templates loaded and the tenant's
/// discovery document and keys reached; one line per problem, and a non-zero exit on any.
enum CheckConfig {
    static func run(environment: [String: String]) -> Int32 {
        let all = AllSettings(environment: environment)
        var problems = all.problems
        if let worker = all.worker {
            do { _ = try worker.loadPages() } catch { problems += error.lines }
        }
        let auth0 = all.auth0
        if let auth0 { problems += reachTenant(auth0) }
        AllSettings.report(problems)
        if problems.isEmpty {
            print("ok: settings valid, templates loaded, \(auth0?.issuer ?? "") reachable")
        }
        return problems.isEmpty ? 0 : 1
    }

    /// Fetches the discovery document and the JWKS it names, checking the issuer matches.
    private static func reachTenant(_ settings: Auth0Settings) -> [String] {
        let http = CurlHTTPClient()
        let url = settings.issuer + ".well-known/openid-configuration"
        do {
            let answer = try http.send(
                HTTPClientRequest(method: "GET", url: url, timeoutSeconds: settings.timeoutSeconds))
            guard answer.status == 200, let document = JSONValue.parse(answer.body) else {
                return ["AUTH0_DOMAIN: \(url) answered \(answer.status), not a discovery document"]
            }
            guard document["issuer"]?.string == settings.issuer else {
                return [
                    "AUTH0_DOMAIN: the tenant calls itself \(document["issuer"]?.string ?? "nothing"), not \(settings.issuer)"
                ]
            }
            guard let jwks = document["jwks_uri"]?.string,
                let keys = try? http.send(
                    HTTPClientRequest(method: "GET", url: jwks, timeoutSeconds: settings.timeoutSeconds)),
                keys.status == 200, JSONValue.parse(keys.body)?["keys"]?.array?.isEmpty == false
            else { return ["AUTH0_DOMAIN: the tenant's signing keys (jwks_uri) could not be fetched"] }
            return []
        } catch {
            return ["AUTH0_DOMAIN: \(url) could not be reached (\(error))"]
        }
    }
}
