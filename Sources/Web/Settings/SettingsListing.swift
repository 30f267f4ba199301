/// How a program lists the settings it read (`metadata-demo settings`, `dev-tenant settings`):
/// one line each, `NAME = value  (source)  meaning`, the columns aligned, a secret only as set.
public enum SettingsListing {
    /// The lines of `reads`, in the order they were read.
    public static func lines(_ reads: [SettingRead]) -> [String] {
        let rows = reads.map { read in
            (
                read.setting.name + " = " + oneLine(read.shown),
                read.source == .unset && read.shown == "(not set)" ? "(unset)" : "(\(read.source))",
                read.setting.meaning + (read.setting.formerName.map { " (formerly \($0))" } ?? "")
                    + (read.setting.isSecret
                        ? " (a secret: never shown)" : read.setting.hidesUserinfo ? " (its password never shown)" : "")
            )
        }
        let first = rows.map(\.0.count).max() ?? 0
        let second = rows.map(\.1.count).max() ?? 0
        return rows.map { row in row.0.padded(to: first) + "  " + row.1.padded(to: second) + "  " + row.2 }
    }

    /// A value on one line: control characters (a value pasted with a newline) shown as `?`.
    private static func oneLine(_ text: String) -> String {
        String(
            String.UnicodeScalarView(text.unicodeScalars.map { $0.properties.generalCategory == .control ? "?" : $0 }))
    }
}
