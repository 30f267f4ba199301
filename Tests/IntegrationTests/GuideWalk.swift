import Foundation
import Glibc
import TestSupport
import Testing

/// The deploy guide's commands, run on a package installed into a throwaway root: each command
/// must appear in `deploy/README.md` exactly as run, and is rewritten only where the machine
/// differs (paths under the root, the site's ports, the dev tenant standing in for Auth0).
final class GuideWalk {
    let root = NSTemporaryDirectory() + "guide-root-\(UUID().uuidString.prefix(8))"
    let package: String
    let stack: Stack
    private(set) var nginx: ProductionNginx?
    private var worker: ChildProcess?
    private let guideText: String

    init(package: String) throws {
        self.package = package
        guideText = try String(contentsOfFile: Stack.repoRoot + "/deploy/README.md", encoding: .utf8)
        stack = try Stack(workers: 0)
        for folder in ["/var/lib/dpkg/info", "/var/lib/dpkg/updates", "/root"] {
            try FileManager.default.createDirectory(atPath: root + folder, withIntermediateDirectories: true)
        }
        FileManager.default.createFile(atPath: root + "/var/lib/dpkg/status", contents: Data())
    }

    /// `apt install ./metadata-demo_….deb`, as dpkg does it into the root (the libraries it
    /// depends on are this machine's, outside the root).
    func install() throws {
        #expect(guideText.contains("apt install ./metadata-demo_1.0.0_amd64.deb nginx"))
        try dpkg(["--force-depends", "--force-confold", "-i", package])
    }

    /// The guide's restore, as a script would run it (no terminal): the archive extracted, then
    /// the package installed keeping the restored conffiles. Returns what dpkg said without
    /// `--force-confold` first, which is what the guide's earlier advice came to.
    func restore(archive command: String) throws -> (withoutKeeping: (status: Int32, output: String), Void) {
        #expect(guideText.contains(command))
        #expect(try guide(command).status == 0)
        let install = "apt-get install -y -o Dpkg::Options::=--force-confold ./metadata-demo_1.0.0_amd64.deb nginx"
        #expect(guideText.contains(install), "the guide no longer says: \(install)")
        let asking = try Stack.run(
            "/usr/bin/dpkg",
            ["--root=\(root)", "--force-script-chrootless", "--force-not-root", "--log=\(root)/dpkg.log"]
                + ["--force-depends", "-i", package],
            environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin"])
        try dpkg(["--force-depends", "--force-confold", "-i", package])
        return (asking, ())
    }

    /// `apt purge metadata-demo`.
    func purge() throws {
        #expect(guideText.contains("`apt purge metadata-demo`"))
        try dpkg(["--purge", "metadata-demo"])
    }

    private func dpkg(_ arguments: [String]) throws {
        try Stack.check(
            "/usr/bin/dpkg",
            ["--root=\(root)", "--force-script-chrootless", "--force-not-root", "--log=\(root)/dpkg.log"] + arguments,
            environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin"])
    }

    func mode(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1
    }

    /// The operator's edit of the settings file: `NAME=value` for each name, from `values`.
    func configure(_ names: [String], from values: [String: String]) throws {
        let path = root + "/etc/metadata-demo/metadata-demo.env"
        var lines = try String(contentsOfFile: path, encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false
        )
        .map(String.init)
        for name in names {
            let index = try #require(lines.firstIndex { $0.hasPrefix(name + "=") }, "\(name) not in the shipped file")
            lines[index] = name + "=" + (values[name] ?? "")
        }
        try lines.joined(separator: "\n").write(toFile: path, atomically: false, encoding: .utf8)
    }

    /// Runs a command of the guide (it must be there, word for word) under bash, with the root
    /// standing for `/`; `name` stands for YOUR.SITE.NAME.
    func guide(_ command: String, input: String = "", name: String = "demo.example.com") throws -> (
        status: Int32, output: String
    ) {
        #expect(guideText.contains(command), "the guide no longer says: \(command)")
        var line = command.replacingOccurrences(of: "YOUR.SITE.NAME", with: name)
            .replacingOccurrences(
                of: " metadata-demo check-config", with: " \(root)/usr/bin/metadata-demo check-config"
            )
            .replacingOccurrences(
                of: " metadata-demo new-assertion-key", with: " \(root)/usr/bin/metadata-demo new-assertion-key"
            )
            .replacingOccurrences(of: " /etc/", with: " \(root)/etc/")
            .replacingOccurrences(of: "=/etc/", with: "=\(root)/etc/")
            .replacingOccurrences(of: " /root/", with: " \(root)/root/")
        if let nginx {
            line = line.replacingOccurrences(
                of: "curl -fsS https://demo.example.com/",
                with:
                    "curl -fsS -k --resolve demo.example.com:\(nginx.https):127.0.0.1 https://demo.example.com:\(nginx.https)/"
            ).replacingOccurrences(of: "http://127.0.0.1:9145/", with: "http://127.0.0.1:\(nginx.metrics)/")
        }
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-o", "pipefail", "-c", line]
        process.environment = ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "HOME": root + "/root"]
        let output = Pipe()
        let stdin = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = stdin
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    /// What `systemctl start metadata-demo@INSTANCE` does, read from the installed units: the
    /// socket at its ListenStream= (held by the supervisor, as systemd holds it), the program of
    /// ExecStart= with the Environment= lines, the EnvironmentFile= (read by the worker with the
    /// same rules), the LoadCredential= files copied to a credentials folder, the state folder.
    func startWorkerAsTheUnitDoes(instance: String) throws {
        let units = root + "/lib/systemd/system/"
        let service = try String(contentsOfFile: units + "metadata-demo@.service", encoding: .utf8)
        let socketUnit = try String(contentsOfFile: units + "metadata-demo@.socket", encoding: .utf8)
        func values(_ key: String, in text: String) -> [String] {
            text.split(separator: "\n").filter { $0.hasPrefix(key + "=") }.map { String($0.dropFirst(key.count + 1)) }
        }
        func rooted(_ value: String) -> String {
            (value.hasPrefix("/") ? root + value : value).replacingOccurrences(of: "%i", with: instance)
        }
        var environment = ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin"]
        for assignment in values("Environment", in: service) {
            let parts = assignment.split(separator: "=", maxSplits: 1).map(String.init)
            environment[parts[0]] = rooted(parts[1])
        }
        let credentials = root + "/run/credentials/metadata-demo@\(instance).service"
        try FileManager.default.createDirectory(atPath: credentials, withIntermediateDirectories: true)
        for credential in values("LoadCredential", in: service) {
            let parts = credential.split(separator: ":", maxSplits: 1).map(String.init)
            try? FileManager.default.removeItem(atPath: credentials + "/" + parts[0])
            try FileManager.default.copyItem(atPath: rooted(parts[1]), toPath: credentials + "/" + parts[0])
        }
        environment["CREDENTIALS_DIRECTORY"] = credentials
        let state = try #require(environment["STATE_DIR"])
        try FileManager.default.createDirectory(
            atPath: state, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let program = rooted(try #require(values("ExecStart", in: service).first))
        let envFile = rooted(try #require(values("EnvironmentFile", in: service).first))
        let socket = rooted(try #require(values("ListenStream", in: socketUnit).first))
        try FileManager.default.createDirectory(
            atPath: (socket as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        var supervisor = [
            Stack.repoRoot + "/scripts/fastcgi-supervisor", "--name", "metadata-demo@\(instance)", "--socket", socket,
            "--mode", try #require(values("SocketMode", in: socketUnit).first),
        ]
        if getuid() == 0 { supervisor += ["--group", try #require(values("SocketGroup", in: socketUnit).first)] }
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = supervisor + ["--", program, "--env-file", envFile]
        process.environment = environment
        let log = root + "/worker.log"
        FileManager.default.createFile(atPath: log, contents: nil)
        process.standardOutput = FileHandle(forWritingAtPath: log)
        process.standardError = process.standardOutput
        try process.run()
        worker = process
        // Serving once it answers on the socket (the supervisor's socket exists before).
        for _ in 0..<400 {
            if let fd = Stack.connect(unixSocket: socket) {
                var client = FastCGITestClient(socket: fd)
                defer { close(fd) }
                if (try? client.get("/healthz"))?.hasSuffix("ok\n") == true { return }
            }
            guard process.isRunning else { break }
            usleep(50_000)
        }
        throw StackError(
            "the packaged worker did not serve: \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
    }

    /// nginx with the installed site (as edited), serving the package's static files.
    func startNginx() throws {
        let site = try String(contentsOfFile: root + "/etc/nginx/sites-available/metadata-demo", encoding: .utf8)
        nginx = try ProductionNginx(
            site: site, staticRoot: root + "/usr/share/metadata-demo", socketDirectory: root + "/run/metadata-demo",
            previousStaticRoot: root + "/var/cache/metadata-demo")
    }

    func stopWorker() {
        guard let worker, worker.isRunning else { return }
        kill(worker.processIdentifier, SIGTERM)
        for _ in 0..<400 where worker.isRunning { usleep(25_000) }
    }

    func stop() {
        stopWorker()
        nginx?.stop()
        stack.stop()
    }
}
