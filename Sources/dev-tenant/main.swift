import CurlClient
import DevTenantKit
import FastCGIServer
import Foundation
import Web

// The dev tenant as a FastCGI worker of its own, behind nginx on DEV_TENANT_PORT.
// Stop signals blocked before any thread starts (see metadata-demo's main): run() takes them.
FastCGIServer.blockStopSignals()
let environment = ProcessInfo.processInfo.environment
let log = Log(minimum: Log.Level(name: environment["LOG_LEVEL"] ?? "info") ?? .info)
// `dev-tenant settings`: every setting it reads, its value in effect and where it came from.
if CommandLine.arguments.dropFirst().first == "settings" {
    let reader = TenantConfig.readSettings(environment: environment)
    FileHandle.standardOutput.write(Data((SettingsListing.lines(reader.reads).joined(separator: "\n") + "\n").utf8))
    for line in reader.problems { FileHandle.standardError.write(Data("dev-tenant: \(line)\n".utf8)) }
    exit(reader.problems.isEmpty ? 0 : 1)
}
do {
    let config = try TenantConfig(environment: environment)
    let tenant = try DevTenant(config: config, log: log, http: CurlHTTPClient())
    let listenText = environment["FASTCGI_LISTEN"] ?? "127.0.0.1:9001"
    guard let address = ListenAddress.parse(listenText, environment: environment) else {
        FileHandle.standardError.write(
            Data("dev-tenant: FASTCGI_LISTEN: \"\(listenText)\" is not a listen address\n".utf8))
        exit(2)
    }
    var options = FastCGIServer.Options()
    options.threads = 16
    // Mode 660, and the web server's group when told (FASTCGI_SOCKET_GROUP), as the worker's.
    if let group = environment["FASTCGI_SOCKET_GROUP"], !group.isEmpty {
        guard let gid = FastCGIServer.groupID(group) else {
            FileHandle.standardError.write(Data("dev-tenant: FASTCGI_SOCKET_GROUP: \"\(group)\" is not a group\n".utf8))
            exit(2)
        }
        options.socketGroup = gid
    }
    try FastCGIServer(address: address, options: options, responder: tenant, log: log).run()
    // Requests in flight have finished (or the drain deadline passed).
    FastCGIServer.exitAtOnce(0)
} catch let problems as TenantConfigProblems {
    for line in problems.lines { FileHandle.standardError.write(Data("dev-tenant: \(line)\n".utf8)) }
    exit(2)
} catch {
    FileHandle.standardError.write(Data("dev-tenant: \(error)\n".utf8))
    exit(1)
}
