import Web

/// `--env-file PATH`: the settings of an environment file, read with systemd's rules
/// (`EnvironmentFile`), over the process's environment (as systemd's `EnvironmentFile=` is over
/// `Environment=`). So `metadata-demo check-config --env-file F` judges exactly what the service
/// started with `EnvironmentFile=F` will see, and `settings` labels each value with its file.
enum EnvFileOption {
    /// What `--env-file` read: one line per problem in the file (or with the option), each naming
    /// the file, and the file's path and the line of each name it gives.
    struct Read {
        var problems: [String] = []
        var path: String?
        var lineNumbers: [String: Int] = [:]
    }

    /// Takes `--env-file PATH` out of `arguments` and its settings into `environment`, noting in
    /// `origins` where each came from.
    static func apply(
        arguments: inout [String], environment: inout [String: String], origins: inout [String: SettingSource]
    ) -> Read {
        guard let flag = arguments.firstIndex(of: "--env-file") else { return Read() }
        guard flag + 1 < arguments.count else {
            arguments.remove(at: flag)
            return Read(problems: ["--env-file: the path of a file is needed"])
        }
        let path = arguments[flag + 1]
        arguments.removeSubrange(flag...(flag + 1))
        switch EnvironmentFile.read(path: path) {
        case .failure(let failure):
            return Read(problems: ["--env-file: \(failure)"])
        case .success(let file):
            environment.merge(file.values) { $1 }
            for name in file.values.keys { origins[name] = .settingsFile(path) }
            return Read(
                problems: file.problems.map { "\(path): \($0)" }, path: path, lineNumbers: file.lineNumbers)
        }
    }

    /// One line for each name `read`'s file gives that no setting in `reads` is read under (a
    /// misspelt name is silently ignored by systemd and the worker alike), with the known name
    /// nearest to it when one is near.
    static func unknownNames(in read: Read, reads: [SettingRead]) -> [String] {
        guard let path = read.path else { return [] }
        var known: Set<String> = ["CREDENTIALS_DIRECTORY"]
        for setting in reads.map(\.setting) {
            for name in [setting.name, setting.formerName].compactMap({ $0 }) {
                known.formUnion([name, name + "_FILE"])
            }
        }
        return read.lineNumbers.sorted { $0.value < $1.value }.compactMap { name, line in
            guard !known.contains(name) else { return nil }
            let nearest = known.map { ($0, SpellingDistance.between($0, name)) }.min { $0.1 < $1.1 }
            let hint = nearest.flatMap { $0.1 <= 3 ? " (did you mean \($0.0)?)" : nil } ?? ""
            return "\(path): line \(line): \(name) is no setting the worker reads, so it does nothing\(hint)"
        }
    }
}

/// How many single-character edits (insertions, deletions, substitutions) turn one name into another.
enum SpellingDistance {
    static func between(_ a: String, _ b: String) -> Int {
        let (a, b) = (Array(a.utf8), Array(b.utf8))
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}
