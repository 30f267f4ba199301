import FastCGIServer
import Foundation
import MetadataDemoApp
import Web

// Wiring only: read settings, load templates, start the FastCGI server.
let environment = ProcessInfo.processInfo.environment
let settings: WorkerSettings
do {
    settings = try WorkerSettings(environment: environment)
} catch let problems as SettingsProblems {
    for line in problems.lines { FileHandle.standardError.write(Data("metadata-demo: \(line)\n".utf8)) }
    exit(2)
}

let log = Log(minimum: settings.logLevel)
do {
    let pages = try Pages(library: TemplateLibrary(directory: settings.templatesDirectory))
    let app = MetadataDemo(pages: pages, security: SecurityHeaders(), log: log)
    var options = FastCGIServer.Options()
    options.threads = settings.threads
    options.socketMode = settings.socketMode
    try FastCGIServer(address: settings.listen, options: options, responder: app, log: log).run()
} catch {
    FileHandle.standardError.write(Data("metadata-demo: \(error)\n".utf8))
    exit(1)
}
