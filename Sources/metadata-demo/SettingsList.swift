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
        FileHandle.standardOutput.write(Data((lines(all.reads).joined(separator: "\n") + "\n").utf8))
        let problems = earlier + all.problems
        for note in all.notes { FileHandle.standardError.write(Data("metadata-demo: note: \(note)\n".utf8)) }
        for line in problems { FileHandle.standardError.write(Data("metadata-demo: \(line)\n".utf8)) }
        return problems.isEmpty ? 0 : 1
    }

    /// One line per setting: `NAME = value  (source)  meaning`, the columns aligned.
    static func lines(_ reads: [SettingRead]) -> [String] {
        let rows = reads.map { read in
            (
                read.setting.name + " = " + shown(read.shown),
                read.source == .unset && read.shown == "(not set)" ? "(unset)" : "(\(read.source))",
                read.setting.meaning + (read.setting.formerName.map { " (formerly \($0))" } ?? "")
                    + (read.setting.isSecret
                        ? " (a secret: never shown)" : read.setting.hidesUserinfo ? " (its password never shown)" : "")
            )
        }
        let first = rows.map(\.0.count).max() ?? 0
        let second = rows.map(\.1.count).max() ?? 0
        return rows.map { row in
            row.0.padding(toLength: first, withPad: " ", startingAt: 0) + "  "
                + row.1.padding(toLength: second, withPad: " ", startingAt: 0) + "  " + row.2
        }
    }

    /// A value on one line: control characters (a value pasted with a newline) shown as `?`.
    private static func shown(_ text: String) -> String {
        String(
            String.UnicodeScalarView(text.unicodeScalars.map { $0.properties.generalCategory == .control ? "?" : $0 }))
    }
}
