import Auth0Web
import Foundation

/// Both settings groups read together, so every problem in either is reported at once.
struct AllSettings {
    var worker: WorkerSettings?
    var auth0: Auth0Settings?
    var problems: [String] = []

    init(environment: [String: String]) {
        do { worker = try WorkerSettings(environment: environment) } catch let error as SettingsProblems {
            problems += error.lines
        } catch { problems.append("\(error)") }
        do { auth0 = try Auth0Settings(environment: environment) } catch let error as SettingsProblems {
            problems += error.lines
        } catch { problems.append("\(error)") }
    }

    /// Writes each problem as one line on standard error.
    static func report(_ problems: [String]) {
        for line in problems { FileHandle.standardError.write(Data("metadata-demo: \(line)\n".utf8)) }
    }
}
