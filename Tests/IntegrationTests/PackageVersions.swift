import Foundation

/// A built package again as a later version: what an upgrade brings.
enum PackageVersions {
    /// `package` (built as 1.0.0) relabelled `version`, beside it in a folder of its own under the
    /// same file name pattern (`NAME_VERSION_amd64.deb`). With `changingSettings`, the settings file
    /// (a conffile) gains a line, as when a new version changes it under an operator's edits.
    static func next(of package: String, version: String, changingSettings: Bool = false) throws -> String {
        let work = NSTemporaryDirectory() + "next-deb-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        try Stack.check("/usr/bin/dpkg-deb", ["-R", package, work + "/root"])
        let control = work + "/root/DEBIAN/control"
        let text = try String(contentsOfFile: control, encoding: .utf8)
        try text.replacingOccurrences(of: "Version: 1.0.0", with: "Version: " + version)
            .write(toFile: control, atomically: true, encoding: .utf8)
        if changingSettings {
            let settings = work + "/root/etc/metadata-demo/metadata-demo.env"
            let shipped = try String(contentsOfFile: settings, encoding: .utf8)
            try (shipped + "# A line the next version added.\n").write(
                toFile: settings, atomically: true, encoding: .utf8)
        }
        let name = (package as NSString).lastPathComponent.replacingOccurrences(of: "_1.0.0_", with: "_\(version)_")
        let next = work + "/" + name
        try Stack.check("/usr/bin/dpkg-deb", ["--root-owner-group", "-b", work + "/root", next])
        return next
    }
}
