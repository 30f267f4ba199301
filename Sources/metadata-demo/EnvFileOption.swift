import Web

/// `--env-file PATH`: the settings of an environment file, read with systemd's rules
/// (`EnvironmentFile`), over the process's environment (as systemd's `EnvironmentFile=` is over
/// `Environment=`). So `metadata-demo check-config --env-file F` judges exactly what the service
/// started with `EnvironmentFile=F` will see, and `settings` labels each value with its file.
enum EnvFileOption {
    /// Takes `--env-file PATH` out of `arguments` and its settings into `environment`, noting in
    /// `origins` where each came from; returns one line per problem in the file (or with the
    /// option), each naming the file.
    static func apply(
        arguments: inout [String], environment: inout [String: String], origins: inout [String: SettingSource]
    ) -> [String] {
        guard let flag = arguments.firstIndex(of: "--env-file") else { return [] }
        guard flag + 1 < arguments.count else {
            arguments.remove(at: flag)
            return ["--env-file: the path of a file is needed"]
        }
        let path = arguments[flag + 1]
        arguments.removeSubrange(flag...(flag + 1))
        switch EnvironmentFile.read(path: path) {
        case .failure(let failure):
            return ["--env-file: \(failure)"]
        case .success(let file):
            environment.merge(file.values) { $1 }
            for name in file.values.keys { origins[name] = .settingsFile(path) }
            return file.problems.map { "\(path): \($0)" }
        }
    }
}
