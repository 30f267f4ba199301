import Foundation
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
        FileHandle.standardOutput.write(Data((SettingsListing.lines(all.reads).joined(separator: "\n") + "\n").utf8))
        let problems = earlier + all.problems
        for note in all.notes { FileHandle.standardError.write(Data("metadata-demo: note: \(note)\n".utf8)) }
        for line in problems { FileHandle.standardError.write(Data("metadata-demo: \(line)\n".utf8)) }
        return problems.isEmpty ? 0 : 1
    }
}
