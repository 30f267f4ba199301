import FoundationEssentials

/// Where the product's folders are when nothing says: beside an installed binary, the package's
/// `PREFIX/share/metadata-demo/NAME` (for `PREFIX/bin/metadata-demo`), so `check-config` and
/// `publish-static` run by hand read what the service reads; else `NAME` in the current
/// folder, as in a checkout.
enum InstalledLayout {
    static func directory(_ name: String) -> String {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let installed = executable.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("share/metadata-demo/" + name).path
        var isFolder = false
        let found = FileManager.default.fileExists(atPath: installed, isDirectory: &isFolder) && isFolder
        return found ? installed : name
    }
}
