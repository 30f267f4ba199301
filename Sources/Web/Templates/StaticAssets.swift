import FoundationEssentials

/// Fingerprinted names for the files nginx serves from `Public/`: `app.css` becomes
/// `/static/app.1a2b3c4d5e6f.css`, so nginx can let browsers cache them for good and a changed
/// file gets a new name. Computed once at start-up from the files' contents.
public struct StaticAssets: Sendable {
    private let paths: [String: String]

    /// Reads every file of `directory` (not its subfolders).
    public init(directory: String) throws {
        var paths: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory) {
            var isFolder = false
            let path = directory + "/" + name
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder,
                let data = FileManager.default.contents(atPath: path), let dot = name.lastIndex(of: ".")
            else { continue }
            paths[name] = "/static/\(name[..<dot]).\(StaticAssets.fingerprint(Array(data)))\(name[dot...])"
        }
        self.paths = paths
    }

    /// Plain names, for tests that do not read files.
    public init(paths: [String: String] = [:]) { self.paths = paths }

    /// The URL path of a file: fingerprinted when it was found, plain otherwise.
    public func path(_ name: String) -> String { paths[name] ?? "/static/" + name }

    /// 12 hex digits of FNV-1a (64-bit): enough to tell versions of a file apart.
    static func fingerprint(_ bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        let hex = String(hash, radix: 16)
        return String((String(repeating: "0", count: 16 - hex.count) + hex).prefix(12))
    }
}
