import Auth0Web
import FastCGIServer
import Foundation
import MetadataDemoApp
import Web

/// Both settings groups read together, so every problem in either is reported at once.
struct AllSettings {
    var worker: WorkerSettings?
    var auth0: Auth0Settings?
    /// The mini apps (read only once the base URL their audiences default to is known).
    var miniApps: MiniApps?
    var problems: [String] = []

    init(environment: [String: String]) {
        do { worker = try WorkerSettings(environment: environment) } catch let error as SettingsProblems {
            problems += error.lines
        } catch { problems.append("\(error)") }
        do { auth0 = try Auth0Settings(environment: environment) } catch let error as SettingsProblems {
            problems += error.lines
        } catch { problems.append("\(error)") }
        if let auth0 {
            do {
                miniApps = try MiniApps(
                    environment: environment, baseURL: auth0.baseURL, isAuth0: auth0.isAuth0,
                    loginAudience: auth0.audience)
            } catch {
                problems += error.lines
            }
        }
        problems = problems.map { Self.namingComment($0, in: environment) }
    }

    /// A problem line with the likely cause added when the setting it names holds a comment
    /// after its value: systemd's EnvironmentFile= keeps `v2   # or oidc` whole, so the journal
    /// says so as check-config does, not only that the value is wrong.
    static func namingComment(_ line: String, in environment: [String: String]) -> String {
        guard let colon = line.firstIndex(of: ":"), let value = environment[String(line[..<colon])],
            EnvironmentFile.holdsTrailingComment(value)
        else { return line }
        return line + " (the value holds a comment after it, which systemd keeps as part of the value: "
            + "put comments on lines of their own)"
    }

    /// Writes each problem as one line on standard error, and the first as the service's status
    /// line (the unit's own line in `systemctl status`, for a worker about to exit with status 2:
    /// "Job … canceled" alone said nothing of why).
    static func report(_ problems: [String]) {
        for line in problems { FileHandle.standardError.write(Data("metadata-demo: \(line)\n".utf8)) }
        guard let first = problems.first else { return }
        let more = problems.count > 1 ? " (and \(problems.count - 1) more: see the journal)" : ""
        FastCGIServer.reportFinalStatus("stopped, a setting is wrong: " + first + more)
    }
}
