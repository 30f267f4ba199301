import Auth0Web
import CurlClient
import FastCGIServer
import FoundationEssentials
import Glibc
import Locking
import MetadataDemoApp
import OpenSSLCrypto
import Web

// Wiring only: read settings, load templates, start the FastCGI server.
var environment = ProcessInfo.processInfo.environment
var arguments = Array(CommandLine.arguments.dropFirst())
if Usage.isAsked(arguments) {
    print(Usage.text, terminator: "")
    exit(0)
}
var origins: [String: SettingSource] = [:]
let envFile = EnvFileOption.apply(arguments: &arguments, environment: &environment, origins: &origins)
let envFileProblems = envFile.problems
if arguments.first == "check-config" {
    exit(CheckConfig.run(environment: environment, envFile: envFile))
}
// `metadata-demo auth0 plan|apply`: the Auth0 tenant set up for this site (Auth0Command).
if arguments.first == "auth0" {
    exit(Auth0Command.run(Array(arguments.dropFirst()), environment: environment, envFile: envFile))
}
// `metadata-demo settings`: every setting read, its value in effect and where it came from.
if arguments.first == "settings" {
    // With the service's settings file, what the service runs with: its unit's own settings too.
    if envFile.path != nil {
        ServiceUnitEnvironment.layer(into: &environment, origins: &origins)
    }
    exit(SettingsList.run(environment: environment, origins: origins, problems: envFileProblems))
}
guard envFileProblems.isEmpty else {
    AllSettings.report(envFileProblems)
    exit(2)
}
// `metadata-demo publish-static DIR`: the files of PUBLIC_DIR, under their plain and current
// fingerprinted names, for nginx to serve (deploy/nginx-site.conf).
if arguments.first == "publish-static" {
    guard let output = arguments.dropFirst().first else {
        Output.problem("usage: metadata-demo publish-static DIR")
        exit(2)
    }
    var reader = SettingsReader(environment: environment)
    let publicDirectory = WorkerSettings.publicDirectory(&reader)
    do {
        for name in try StaticAssets.publish(from: publicDirectory, to: output) { print("\(output)/\(name)") }
        exit(0)
    } catch {
        Output.problem("PUBLIC_DIR: cannot publish \(publicDirectory) to \(output) (\(error))")
        exit(1)
    }
}

// `metadata-demo new-assertion-key`: a new P-256 private key as PEM, for ASSERTION_KEY (the
// package's postinst makes the first; rotating puts a new one first, see deploy/README.md).
// `metadata-demo new-dpop-key`: likewise, for DPOP_KEY (the same on every worker).
// `metadata-demo new-client-key`: a new RSA 2048 private key as PEM, for CLIENT_ASSERTION_KEY
// (private_key_jwt), and with `--certificate FILE` its self-signed certificate (NewClientKey);
// its public half (`openssl pkey -in KEY -pubout`) goes to the provider.
if arguments.first == "new-client-key" { exit(NewClientKey.run(Array(arguments.dropFirst()))) }
let keyMakers: [String: () throws -> String] = [
    "new-assertion-key": { try ECPrivateKey().pem() },
    "new-dpop-key": { try ECPrivateKey().pem() },
]
if let command = arguments.first, let makeKey = keyMakers[command] {
    do {
        print(try makeKey(), terminator: "")
        exit(0)
    } catch {
        Output.problem("cannot make a key (\(error))")
        exit(1)
    }
}

// Serving from here on. SIGTERM and SIGINT are blocked now, before any thread starts, so every
// thread inherits the block and a stop that arrives during start-up waits for `run()` to take it:
// unblocked, it could reach libfcgi's handler, which only sets a flag, and be lost.
FastCGIServer.blockStopSignals()

// Every problem in every setting is reported at once, one line each, naming the setting.
let all = AllSettings(environment: environment, serving: true)
guard all.problems.isEmpty, let settings = all.worker, let auth0 = all.relyingParty, let miniApps = all.miniApps
else {
    AllSettings.report(all.problems)
    exit(2)
}

let log = Log(minimum: settings.logLevel)
for note in all.notes { log(.warning, "setting read under its former name", ["note": note]) }
let pages: LocalizedPages
do { pages = try settings.loadPages(provider: auth0.provider.name) } catch {
    AllSettings.report(error.lines)
    exit(2)
}
// The session ledger's store: opening the SQLite file fails start-up (a wrong STATE_DIR); a
// Redis that does not answer yet is only reported, since page views serve from the local copy.
let store: any SharedStore
do { store = try settings.ledger.store.open(retentionSeconds: auth0.sessions.absoluteLifetime) } catch {
    AllSettings.report(["\(settings.ledger.store.settingName): \(error.description)"])
    exit(2)
}
let http = CurlHTTPClient()

let product = ProductWiring(auth0: auth0, miniApps: miniApps, pages: pages, http: http, store: store, log: log)

// The tenant's endpoints from its discovery document (check-config reads them the same way). A
// wrong answer stops start-up; no answer for 15 s (Auth0 or the network down at boot)
// does not: the worker serves the "Auth0 unreachable" page (503) and keeps asking, switching to
// the product when the tenant answers, so the service comes up by itself.
var options = FastCGIServer.Options()
let responder: any Responder
do throws(DiscoveryProblem) {
    responder = product.app(for: try StartupDiscovery.endpoints(for: auth0, http: http, log: log))
} catch  where error.transient {
    let since = Date().formatted(.iso8601)
    let waiting = ResponderSwitch(pending: TenantPendingApp(pages: pages, log: log))
    log(.warning, "tenant unreachable at start: answering 503 until it answers", ["error": error.reason])
    options.readyStatus =
        "\(auth0.provider.name) unreachable since \(since) (\(error.reason)): answering 503, asking again"
    Threads.start("tenant-discovery") {
        do throws(DiscoveryProblem) {
            let endpoints = try StartupDiscovery.waitForTenant(for: auth0, http: http, log: log)
            waiting.become(product.app(for: endpoints))
            log(.warning, "tenant answers: serving", ["since": since])
            FastCGIServer.reportStatus("serving")
        } catch {
            AllSettings.report([error.line])
            _exit(2)
        }
    }
    responder = waiting
} catch {
    AllSettings.report([error.line])
    exit(2)
}
do {
    options.threads = settings.threads
    if let pageThreads = settings.pageThreads { options.pageThreads = pageThreads }
    options.requestSeconds = settings.requestSeconds
    options.maxConnections = settings.connections
    options.peerUsers = settings.peerUsers
    options.socketMode = settings.socketMode
    options.peers = settings.peers
    options.socketGroup = settings.socketGroup
    try FastCGIServer(address: settings.listen, options: options, responder: responder, log: log).run()
    // Requests in flight have finished (or the drain deadline passed).
    FastCGIServer.exitAtOnce(0)
} catch {
    Output.problem("\(error)")
    exit(1)
}
