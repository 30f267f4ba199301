import Foundation
import Glibc
import TestSupport
import Testing

/// `make run` itself (scripts/run), where it must refuse before it builds or starts anything.
@Suite(.serialized) struct MakeRunTests {
    private func makeRun(runDir: String) throws -> (status: Int32, output: String) {
        try Stack.run(
            Stack.repoRoot + "/scripts/run", [],
            environment: [
                "RUN_DIR": runDir, "APP_PORT": String(try Stack.freePort()),
                "DEV_TENANT_PORT": String(try Stack.freePort()),
            ])
    }

    private func folder() throws -> String {
        let dir = NSTemporaryDirectory() + "make-run-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: false)
        chmod(dir, 0o755)
        return dir
    }

    /// `make run` in the background, in a process group of its own (so everything it starts can
    /// be killed at once), with the programs this test run built.
    private func startMakeRun(
        runDir: String, appPort: Int, tenantPort: Int, log: String, extra: [String: String] = [:]
    ) throws -> ChildProcess {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setsid")
        process.arguments = [Stack.repoRoot + "/scripts/run"]
        process.environment = ProcessInfo.processInfo.environment.merging(
            [
                "RUN_DIR": runDir, "APP_PORT": String(appPort), "DEV_TENANT_PORT": String(tenantPort),
                "RUN_BIN_DIR": Stack.binDir,
            ].merging(extra) { $1 }
        ) { $1 }
        FileManager.default.createFile(atPath: log, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Sends `signal` to make run's process group (found through its nginx, whose command line
    /// names the run folder) and waits until none of it is left; what is left after 15 s (or
    /// after a signal other than SIGKILL) is killed, so no test leaves a stack running.
    private func killGroup(of runDir: String, signal: Int32) throws {
        let groups = Set(
            try FileManager.default.contentsOfDirectory(atPath: "/proc").compactMap { pid_t($0) }.filter { pid in
                let line = (try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8)) ?? ""
                return line.hasPrefix("nginx") && line.contains(runDir)
            }.map { getpgid($0) }.filter { $0 > 1 && $0 != getpgrp() })
        try #require(!groups.isEmpty, "no nginx of \(runDir) is running")
        for group in groups {
            kill(-group, signal)
            for _ in 0..<300 where kill(-group, 0) == 0 { usleep(50_000) }
            kill(-group, SIGKILL)
        }
    }

    private func tail(_ log: String) -> String {
        String(((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").suffix(800))
    }

    private func waitForRunning(_ log: String, seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            if text.contains("Metadata demo is running at") { return true }
            if text.contains("did not") || text.contains("cannot") { return false }
            usleep(200_000)
        }
        return false
    }

    /// Issue 23, item 2: after a kill -9 of everything make run started, the sockets it left
    /// (mini.sock among them) kept nginx from starting, and the worker stopped naming
    /// AUTH0_DOMAIN; every later make run failed the same way. Now it starts again.
    @Test func makeRunStartsAgainAfterAKill9OfEverythingItStarted() throws {
        let runDir = try folder()
        let (appPort, tenantPort) = (try Stack.freePort(), try Stack.freePort())
        let first = try startMakeRun(
            runDir: runDir, appPort: appPort, tenantPort: tenantPort, log: runDir + "-first.log")
        #expect(waitForRunning(runDir + "-first.log", seconds: 60), "\(tail(runDir + "-first.log"))")
        _ = first
        // The whole group at once: the script, the supervisors, nginx, the worker, the tenant.
        try killGroup(of: runDir, signal: SIGKILL)
        let left = try FileManager.default.contentsOfDirectory(atPath: runDir).filter { $0.hasSuffix(".sock") }
        #expect(left.contains("mini.sock") && left.contains("metadata-demo.sock"), "\(left)")
        // Ports of its own: the first run's, freed by the kill, may already be another suite's
        // (suites run side by side and take free ports); what is left in the run folder is the test.
        let (secondAppPort, secondTenantPort) = (try Stack.freePort(), try Stack.freePort())
        let second = try startMakeRun(
            runDir: runDir, appPort: secondAppPort, tenantPort: secondTenantPort, log: runDir + "-second.log")
        _ = second
        defer { try? killGroup(of: runDir, signal: SIGTERM) }
        #expect(waitForRunning(runDir + "-second.log", seconds: 60), "\(tail(runDir + "-second.log"))")
        let browser = TestClient()
        #expect(try browser.get("http://127.0.0.1:\(secondAppPort)/healthz").status == 200)
        #expect(try browser.get("http://127.0.0.1:\(secondAppPort)/").body.contains("Log in"))
    }

    /// Issue 60: `TENANT_SETUP=apply make run` starts the dev tenant bare and has
    /// `metadata-demo auth0 apply` set it up before the workers start; a person logs in on what it
    /// made.
    @Test func tenantSetupApplyServesOnWhatTheCommandSetUp() throws {
        let runDir = try folder()
        let ports = (try Stack.freePort(), try Stack.freePort())
        _ = try startMakeRun(
            runDir: runDir, appPort: ports.0, tenantPort: ports.1, log: runDir + "-first.log",
            extra: ["TENANT_SETUP": "apply"])
        #expect(waitForRunning(runDir + "-first.log", seconds: 120), "\(tail(runDir + "-first.log"))")
        let first = (try? String(contentsOfFile: runDir + "-first.log", encoding: .utf8)) ?? ""
        #expect(first.contains("created application metadata-demo"), "\(first.suffix(2000))")
        let browser = TestClient()
        let login = try browser.get("http://127.0.0.1:\(ports.0)/login")
        let authorize = try #require(login.header("location"))
        let callback = try browser.signIn(
            at: authorize, email: DemoUser.skippy.email, password: DemoUser.skippy.password)
        _ = try browser.get(callback)
        #expect(try browser.get("http://127.0.0.1:\(ports.0)/").body.contains("skippy@example.com"))
        try killGroup(of: runDir, signal: SIGTERM)
    }

    /// Review 2, item 3: as root, `make run` wrote nginx's configuration through a symlink in a
    /// run folder another user made and used that user's cookie secret. Each such folder is now
    /// refused with a line naming the problem, and nothing in it is written or followed.
    @Test func aRunFolderThatIsNotTheCallersOwnIsRefused() throws {
        let victim = try folder() + "/root-only.conf"
        try "untouched\n".write(toFile: victim, atomically: true, encoding: .utf8)
        var cases: [(String, String)] = []
        let linked = try folder()
        try FileManager.default.createSymbolicLink(atPath: linked + "/nginx.conf", withDestinationPath: victim)
        cases.append((linked, "RUN_DIR holds a symbolic link, nginx.conf"))
        let open = try folder()
        chmod(open, 0o777)
        cases.append((open, "may be written by other users (mode 777)"))
        if getuid() == 0 {
            let foreign = try folder()
            try "forged-secret\n".write(toFile: foreign + "/cookie-secret", atomically: true, encoding: .utf8)
            let nobody = try #require(getpwnam("nobody")).pointee.pw_uid
            chown(foreign, nobody, nobody)
            chown(foreign + "/cookie-secret", nobody, nobody)
            cases.append((foreign, "belongs to user nobody, not to you"))
        }
        for (dir, problem) in cases {
            let (status, output) = try makeRun(runDir: dir)
            #expect(status != 0, "\(dir)")
            #expect(output.contains(problem), "\(output.suffix(400))")
            #expect(output.contains("RUN_DIR=$(mktemp -d) make run"))
            #expect(!output.contains("Compiling") && !output.contains("is running at"))
        }
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "untouched\n")
    }
}
