import FoundationEssentials

extension StaticAssets {
    /// Writes the files of `directory` (not its subfolders) into `output` under their plain
    /// and their fingerprinted names, and removes fingerprinted files no longer current, so the
    /// web server has exactly the names the pages use: an old or made-up fingerprint is not
    /// found. Returns the fingerprinted names written.
    @discardableResult
    public static func publish(from directory: String, to output: String) throws -> [String] {
        let files = FileManager.default
        try files.createDirectory(atPath: output, withIntermediateDirectories: true)
        let assets = try StaticAssets(directory: directory)
        var current: Set<String> = []
        for name in try files.contentsOfDirectory(atPath: directory).sorted() {
            var isFolder = false
            guard files.fileExists(atPath: directory + "/" + name, isDirectory: &isFolder), !isFolder,
                let data = files.contents(atPath: directory + "/" + name)
            else { continue }
            let fingerprinted = String(assets.path(name).dropFirst("/static/".count))
            for target in [name, fingerprinted] {
                try data.write(to: URL(fileURLWithPath: output + "/" + target), options: .atomic)
                try files.setAttributes([.posixPermissions: 0o644], ofItemAtPath: output + "/" + target)
            }
            current.insert(fingerprinted)
        }
        // Names of the form stem.<12 hex>.ext that are not current are from an older version.
        for name in try files.contentsOfDirectory(atPath: output) where !current.contains(name) {
            let parts = name.split(separator: ".")
            if parts.count >= 3, parts[parts.count - 2].count == 12,
                parts[parts.count - 2].allSatisfy({ $0.isHexDigit && !$0.isUppercase })
            {
                try files.removeItem(atPath: output + "/" + name)
            }
        }
        return current.sorted()
    }
}
