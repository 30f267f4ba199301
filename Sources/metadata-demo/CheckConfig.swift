import Auth0Web
import CurlClient
import FoundationEssentials
import Web

/// `metadata-demo check-config`: every setting checked, the templates loaded and the tenant's
/// endpoints discovered exactly as start-up discovers them, its keys reached, the application's
/// credentials proven at the token endpoint, and the session ledger's store opened and asked once
/// (read only); one line per problem, and a non-zero exit on any. The embedded store is opened
/// only where `STATE_DIR` names it: run by hand, without it, check-config makes no `state/`
/// folder here, nor a file in the service's own folder that its user could not write.
enum CheckConfig {
    /// Checks everything, reporting the problems found in the settings file (`envFile`), a name
    /// in it that no setting is read under among them, with the rest.
    static func run(environment: [String: String], envFile: EnvFileOption.Read = .init()) -> Int32 {
        let all = AllSettings(environment: environment)
        var problems = (envFile.problems + EnvFileOption.unknownNames(in: envFile, reads: all.reads)).map {
            SettingProblem(nil, $0)
        }
        problems += all.found
        // The trial's settings work (the worker serves them) but are no production's.
        if let trial = all.worker?.trialMode {
            problems.append(
                SettingProblem(
                    "TRIAL_MODE",
                    "\(trial): these are the trial's settings (metadata-demo-trial on), with a local stand-in "
                        + "for Auth0 and demo logins, not a production's: run `metadata-demo-trial off`, then set your "
                        + "Auth0 application's settings"))
        }
        var ledger = "session ledger reachable"
        if let worker = all.worker {
            do { _ = try worker.loadPages() } catch { problems += error.lines.map { SettingProblem(nil, $0) } }
            if case .sqlite = worker.ledger.store, !worker.ledger.stateDirectoryIsSet {
                ledger = "session ledger: SQLite in the service's STATE_DIR (not opened here)"
            } else {
                do { _ = try worker.ledger.store.open(retentionSeconds: 0).get("check-config") } catch {
                    problems.append(SettingProblem(worker.ledger.store.settingName, error.description))
                }
            }
        }
        let auth0 = all.relyingParty
        var tenantSetUp = ""
        if let auth0 {
            problems += reachTenant(auth0)
            let (lines, said) = checkSetUp(auth0, all)
            problems += lines.map { SettingProblem(nil, $0) }
            tenantSetUp = said
        }
        problems = problems.map { withGuideStep($0, all.reads) }
        AllSettings.report(problems.map(\.line))
        if problems.isEmpty {
            print(
                "ok: settings valid, templates loaded, \(ledger), \(auth0?.issuer ?? "") reachable, "
                    + "client credentials accepted, \(tenantSetUp)")
        } else {
            Output.error("(`metadata-demo settings` lists every setting, its value in effect and where it came from)\n")
        }
        return problems.isEmpty ? 0 : 1
    }

    /// The tenant's set-up checked with the management application (`AUTH0_MANAGEMENT_CLIENT_ID`):
    /// one line per disagreement, each with its dashboard path; and what to say of it when all is well.
    private static func checkSetUp(_ auth0: RelyingPartySettings, _ all: AllSettings) -> (lines: [String], said: String)
    {
        guard auth0.provider.dialect == .auth0 else { return ([], "the provider set up by its own means") }
        guard let setup = all.tenantSetup, setup.management != nil, let miniApps = all.miniApps else {
            return ([], "the tenant's set-up not checked (no AUTH0_MANAGEMENT_CLIENT_ID)")
        }
        do {
            let tenant = try Auth0Command.survey(auth0, setup, miniApps: miniApps, clientIDKnown: true)
            return (tenant.changes.flatMap(\.problems), "the tenant set up as the site needs")
        } catch {
            return (["\(error)"], "")
        }
    }

    /// `problem` with the deployment guide's step that sets its setting, when there is one.
    static func withGuideStep(_ problem: SettingProblem, _ reads: [SettingRead]) -> SettingProblem {
        guard var name = problem.setting else { return problem }
        if name.hasSuffix("_FILE") { name.removeLast(5) }
        guard let step = reads.first(where: { $0.givenAs == name || $0.setting.name == name })?.setting.guideStep
        else { return problem }
        return SettingProblem(problem.setting, problem.text + " (\(step))")
    }

    /// Discovers the endpoints and fetches the JWKS they name.
    private static func reachTenant(_ settings: RelyingPartySettings) -> [SettingProblem] {
        let http = CurlHTTPClient()
        let issuerSetting = settings.provider.issuerSetting
        let endpoints: TenantEndpoints
        do {
            endpoints = try TenantEndpoints.discover(
                issuer: settings.issuer, http: http, timeoutSeconds: settings.provider.timeoutSeconds,
                setting: issuerSetting)
        } catch {
            return [SettingProblem(error.setting, error.reason)]
        }
        // The provider's fit names its settings in its lines (several at once, some of them).
        let problems = ProviderFit.problems(settings, endpoints).map { SettingProblem(nil, $0) }
        guard
            let keys = try? http.send(
                HTTPClientRequest(method: "GET", url: endpoints.jwks, timeoutSeconds: settings.provider.timeoutSeconds)),
            keys.status == 200, JSONValue.parse(keys.body)?["keys"]?.array?.isEmpty == false
        else {
            return problems + [
                SettingProblem(issuerSetting, "the provider's signing keys (jwks_uri) could not be fetched")
            ]
        }
        return problems + proveCredentials(settings, endpoints: endpoints, http: http)
    }

    /// Proves the client id and secret by asking the token endpoint to renew a refresh token that
    /// does not exist: the tenant authenticates the application first (a wrong id or secret: 401
    /// or `invalid_client`), then refuses the token (Auth0: 403 `invalid_grant`; others their own
    /// way). Nothing is made or changed at the tenant.
    private static func proveCredentials(
        _ settings: RelyingPartySettings, endpoints: TenantEndpoints, http: any HTTPClient
    ) -> [SettingProblem] {
        let issuerSetting = settings.provider.issuerSetting
        do {
            let client = try TokenClient(settings: settings, endpoints: endpoints, http: http, clock: .system)
            _ = try client.refresh("check-config-\(UUID().uuidString)")
            return [
                SettingProblem(
                    "AUTH0_CLIENT_ID",
                    "the token endpoint accepted a made-up refresh token; is AUTH0_DOMAIN a real tenant?")
            ]
        } catch {
            switch error.code {
            case .refreshRefused:
                return []  // the application was authenticated; only the made-up token was refused
            case .tenantUnreachable:
                return [
                    SettingProblem(
                        issuerSetting,
                        "the token endpoint could not be reached (\(error.detail)); the credentials were not checked")
                ]
            case .tenantUnavailable:
                return [
                    SettingProblem(
                        issuerSetting, "the token endpoint answered \(error.detail); the credentials were not checked")
                ]
            case .refreshFailed where error.answerStatus == 401 || error.oauthError == "invalid_client":
                let proof =
                    settings.client.assertionKeys.isEmpty
                    ? "AUTH0_CLIENT_SECRET"
                    : "CLIENT_ASSERTION_KEY (is its public key among the application's credentials?)"
                // About two settings at once: the line says both.
                return [
                    SettingProblem(
                        nil,
                        "AUTH0_CLIENT_ID or \(proof): the tenant refused the application's credentials (\(error.detail))"
                    )
                ]
            case .clientAssertionFailed:
                return [
                    SettingProblem("CLIENT_ASSERTION_KEY", "no assertion could be signed with it (\(error.detail))")
                ]
            case .refreshFailed where error.oauthError == "unauthorized_client":
                let scopes = settings.provider.scope.split(separator: " ")
                guard scopes.contains("offline_access") else { return [] }
                return [
                    SettingProblem(
                        "AUTH0_CLIENT_ID",
                        "the application may not use refresh tokens (\(error.detail)), yet AUTH0_SCOPE asks "
                            + "for offline_access: allow the Refresh Token grant in its settings")
                ]
            default:
                // Only a 401 or `invalid_client` says the credentials are wrong (RFC 6749, 5.2);
                // a provider may refuse the made-up token its own way (400 `invalid_request`),
                // which says nothing against a correct client id.
                return []
            }
        }
    }
}
