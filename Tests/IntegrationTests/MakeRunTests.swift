import Foundation
import Glibc
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
