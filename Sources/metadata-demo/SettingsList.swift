import FoundationEssentials
import Web

/// `metadata-demo settings`: every setting the worker reads, in the order it reads them, with
/// its value in effect (a secret only as set or not set), where that came from and what it
/// means, as `postconf -n` or `nginx -T` show an operator what a server runs with. Problems
/// follow on standard error, as start-up would report them; the exit status is 1 when there are any.
enum SettingsList {
    static func run(
        environment: [String: String], origins: [String: SettingSource] = [:], problems earlier: [String] = []
    ) -> Int32 {
        let all = AllSettings(environment: environment, origins: origins)
        // Written at once, so the list is whole before any problem line when both go to one pipe.
        Output.print(SettingsListing.lines(all.reads).joined(separator: "\n") + "\n")
        let problems = earlier + all.problems
        for note in all.notes { Output.problem("note: \(note)") }
        for line in problems { Output.problem(line) }
        return problems.isEmpty ? 0 : 1
    }
}
