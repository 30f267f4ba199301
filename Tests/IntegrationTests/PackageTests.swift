import Foundation
import Glibc
import Locking
import Testing

/// The Debian package `make deb` builds: what it holds, what lintian and apt think of it, and the
/// deploy guide's commands walked on it, from installation to a page served through nginx,
/// rotation, upgrade, backup and purge. It is installed into a throwaway root
/// (`dpkg --root --force-script-chrootless`, its maintainer scripts honouring DPKG_ROOT); what
/// needs systemd (enabling and starting the units) is done as the installed units say, by the
/// supervisor the other tests use.
@Suite(.serialized) struct PackageTests {
    /// The package: `METADATA_DEMO_DEB` (`make test` builds it first), else built here once.
    static func package() throws -> String {
        try built.withLock { path in
            if let path { return path }
            if let given = ProcessInfo.processInfo.environment["METADATA_DEMO_DEB"], !given.isEmpty {
                path = given
            } else {
                // In a build folder of its own: `swift test` holds the lock of .build.
                let output = try Stack.check(
                    Stack.repoRoot + "/scripts/deb", [NSTemporaryDirectory() + "deb-\(UUID().uuidString.prefix(8))"],
                    environment: ["DEB_SCRATCH_PATH": Stack.repoRoot + "/.build-deb-swift"])
                path = String(output.split(separator: "\n").last ?? "")
            }
            return path!
        }
    }
    private static let built = Lock<String?>(nil)

    @Test func thePackageHoldsTheProductAndNothingElse() throws {
        let package = try Self.package()
        let listing = try Stack.check("/usr/bin/dpkg-deb", ["-c", package])
        let paths = Set(listing.split(separator: "\n").compactMap { $0.split(separator: " ").last.map(String.init) })
        for path in [
            "./usr/bin/metadata-demo", "./usr/share/metadata-demo/Templates/profile.html",
            "./usr/share/metadata-demo/Templates/i18n/en.json",
            "./usr/share/metadata-demo/Public/app.css", "./usr/share/metadata-demo/static/app.css",
            "./lib/systemd/system/metadata-demo@.socket", "./lib/systemd/system/metadata-demo@.service",
            "./etc/nginx/sites-available/metadata-demo", "./etc/metadata-demo/metadata-demo.env",
            "./usr/share/doc/metadata-demo/README.md", "./usr/share/doc/metadata-demo/copyright",
            "./usr/share/doc/metadata-demo/examples/prometheus/metadata-demo.rules.yml",
            "./usr/share/metadata-demo/example-apps/mini_app.py",
            "./usr/share/metadata-demo/example-apps/mini_api.py",
            "./lib/systemd/system/metadata-demo-example-app@.service",
            "./lib/systemd/system/metadata-demo-example-api@.service",
            "./lib/systemd/system/metadata-demo-example-app@.socket",
            "./lib/systemd/system/metadata-demo-example-api@.socket",
            "./usr/lib/sysusers.d/metadata-demo.conf",
            "./usr/share/doc/metadata-demo/examples/mini-app/mini-apps.json",
            "./usr/share/man/man1/metadata-demo.1.gz",
        ] {
            #expect(paths.contains(path), "\(path) missing")
        }
        #expect(paths.contains { $0.hasPrefix("./usr/share/metadata-demo/static/app.") && $0.count > 45 })
        #expect(!paths.contains { $0.contains("dev-tenant") }, "the dev tenant is not shipped")
        #expect(!listing.contains("./etc/metadata-demo/cookie-secret"), "secrets are made on the server")
        #expect(!listing.contains("./etc/metadata-demo/assertion-key"), "secrets are made on the server")

        let control = NSTemporaryDirectory() + "control-\(UUID().uuidString.prefix(8))"
        try Stack.check("/usr/bin/dpkg-deb", ["-e", package, control])
        let conffiles = try String(contentsOfFile: control + "/conffiles", encoding: .utf8)
        #expect(conffiles == "/etc/metadata-demo/metadata-demo.env\n/etc/nginx/sites-available/metadata-demo\n")
        let depends = try Stack.check("/usr/bin/dpkg-deb", ["-f", package, "Depends"])
        #expect(depends.contains("libfcgi0ldbl (>= 2.4.2-2+deb12u1)"), "\(depends)")
        #expect(depends.contains("libcurl4") && depends.contains("libsqlite3-0") && depends.contains("libhiredis"))
        #expect(!depends.lowercased().contains("swift"))

        // The Swift runtime is inside the binary: no library of the toolchain is needed.
        let unpacked = NSTemporaryDirectory() + "unpacked-\(UUID().uuidString.prefix(8))"
        try Stack.check("/usr/bin/dpkg-deb", ["-x", package, unpacked])
        let needed = try Stack.check("/usr/bin/readelf", ["-d", unpacked + "/usr/bin/metadata-demo"])
            .split(separator: "\n").filter { $0.contains("(NEEDED)") }
        #expect(!needed.isEmpty)
        #expect(!needed.contains { $0.contains("swift") || $0.contains("Foundation") || $0.contains("dispatch") })
    }

    /// lintian finds no error (its warnings are printed with the test's output), and apt would
    /// install the package here with what Debian 12 has.
    @Test func lintianAndAptAcceptIt() throws {
        let package = try Self.package()
        let trial = (package as NSString).deletingLastPathComponent + "/metadata-demo-trial_1.0.0_amd64.deb"
        for built in [package, trial] {
            let lint = try Stack.run("/usr/bin/lintian", ["--fail-on", "error", built])
            #expect(lint.status == 0, "\(lint.output)")
            #expect(!lint.output.split(separator: "\n").contains { $0.hasPrefix("E: ") }, "\(lint.output)")
        }
        let simulated = try Stack.run(
            "/usr/bin/apt-get", ["install", "--simulate", "--no-install-recommends", package])
        #expect(simulated.status == 0, "\(simulated.output)")
        #expect(
            simulated.output.contains("Inst metadata-demo") || simulated.output.contains("metadata-demo is already"))
    }

    @Test func theGuideLeadsFromThePackageToAPageThroughNginx() throws {
        let started = ContinuousClock.now
        let walk = try GuideWalk(package: try Self.package())
        defer { walk.stop() }

        // 2. Install: nothing is started; the secrets' files exist with mode 0600.
        try walk.install()
        let conf = walk.root + "/etc/metadata-demo"
        #expect(try walk.mode(conf + "/cookie-secret") == 0o600)
        #expect(try walk.mode(conf + "/client-secret") == 0o600)
        #expect(try walk.mode(conf + "/assertion-key") == 0o600)
        let assertionKey = try String(contentsOfFile: conf + "/assertion-key", encoding: .utf8)
        #expect(assertionKey.hasPrefix("-----BEGIN PRIVATE KEY-----"))
        #expect(try String(contentsOfFile: conf + "/client-secret", encoding: .utf8).isEmpty)
        let cookieSecret = try String(contentsOfFile: conf + "/cookie-secret", encoding: .utf8)
        #expect(cookieSecret.count == 65 && cookieSecret.dropLast().allSatisfy(\.isHexDigit))

        // 4. Configure (the editor's part done with sed), 5. check: refused with the empty
        // client secret, accepted once it is written.
        // The three step 4 names (the shipped APP_BASE_URL is a placeholder check-config refuses).
        try walk.configure(
            ["AUTH0_DOMAIN", "AUTH0_CLIENT_ID", "APP_BASE_URL"],
            from: walk.stack.devEnvironment.merging(["APP_BASE_URL": "https://demo.example.com"]) { $1 })
        let checkCommand =
            "CREDENTIALS_DIRECTORY=/etc/metadata-demo metadata-demo check-config --env-file /etc/metadata-demo/metadata-demo.env"
        let refused = try walk.guide(checkCommand)
        #expect(refused.status == 1)
        #expect(refused.output.contains("AUTH0_CLIENT_SECRET: \(conf)/client-secret is empty"), "\(refused.output)")
        let secret = try #require(walk.stack.devEnvironment["AUTH0_CLIENT_SECRET"])
        #expect(
            try walk.guide("install -m 0600 /dev/stdin /etc/metadata-demo/client-secret", input: secret + "\n").status
                == 0)
        let checked = try walk.guide(checkCommand)
        #expect(checked.status == 0, "\(checked.output)")
        #expect(checked.output.contains("ok: settings valid"))
        #expect(!checked.output.contains(secret))

        // 6. Start (as the installed units say), 7. the installed site, 9. look.
        try walk.startWorkerAsTheUnitDoes(instance: "1")
        #expect(
            try walk.guide(
                "sed -i 's/demo\\.example\\.com/YOUR.SITE.NAME/g' /etc/nginx/sites-available/metadata-demo",
                name: "demo.example.com"
            ).status == 0)
        try walk.startNginx()
        let health = try walk.guide("curl -fsS https://demo.example.com/healthz")
        #expect(health.status == 0 && health.output == "ok\n", "\(health.output)")
        let title = try walk.guide("curl -fsS https://demo.example.com/ | grep -o '<title>[^<]*</title>'")
        #expect(title.output == "<title>Metadata demo</title>\n", "\(title.output)")
        let counters = try walk.guide(
            "curl -fsS http://127.0.0.1:9145/metrics/1 | grep '^metadata_demo_requests_total'")
        #expect(counters.output.contains("route=\"/healthz\""), "\(counters.output)")
        let stylesheet = try #require(walk.nginx?.fetch("/").body.firstMatch(of: /\/static\/app\.[0-9a-f]{12}\.css/))
        #expect(try walk.nginx?.fetch(String(stylesheet.output)).status == 200)
        let keySet = try walk.nginx?.fetch("/.well-known/jwks.json")
        #expect(keySet?.status == 200 && keySet?.body.contains("\"crv\":\"P-256\"") == true)
        let setUpIn = ContinuousClock.now - started

        // 13. Rotate the cookie secret: two secrets, both accepted; then back to the new one.
        #expect(
            try walk.guide("sed -i \"1s/^/$(openssl rand -hex 32),/\" /etc/metadata-demo/cookie-secret").status == 0)
        let rotated = try String(contentsOfFile: conf + "/cookie-secret", encoding: .utf8)
        #expect(rotated.split(separator: ",").count == 2 && rotated.hasSuffix("," + cookieSecret))
        #expect(try walk.guide(checkCommand).status == 0)
        #expect(try walk.guide("sed -i '1s/,.*//' /etc/metadata-demo/cookie-secret").status == 0)
        let newest = try String(contentsOfFile: conf + "/cookie-secret", encoding: .utf8)
        #expect(newest.count == 65 && newest != cookieSecret && rotated.hasPrefix(newest.dropLast()))
        #expect(try walk.guide(checkCommand).status == 0)

        // The sibling app's part: rotate the assertion key (two keys, the new one first, both
        // accepted), then keep the new one alone.
        let rotateKey = """
            cd /etc/metadata-demo
            (umask 077 && metadata-demo new-assertion-key > assertion-key.new)
            cat assertion-key >> assertion-key.new && mv assertion-key.new assertion-key
            """
        #expect(try walk.guide(rotateKey).status == 0)
        let twoKeys = try String(contentsOfFile: conf + "/assertion-key", encoding: .utf8)
        #expect(twoKeys.components(separatedBy: "-----BEGIN PRIVATE KEY-----").count == 3)
        #expect(twoKeys.hasSuffix(assertionKey) && twoKeys != assertionKey + assertionKey)
        #expect(try walk.mode(conf + "/assertion-key") == 0o600)
        #expect(try walk.guide(checkCommand).status == 0)
        #expect(try walk.guide("sed -i '/-----END PRIVATE KEY-----/q' /etc/metadata-demo/assertion-key").status == 0)
        let newestKey = try String(contentsOfFile: conf + "/assertion-key", encoding: .utf8)
        #expect(
            twoKeys.hasPrefix(newestKey) && newestKey.components(separatedBy: "-----BEGIN PRIVATE KEY-----").count == 2)
        #expect(try walk.guide(checkCommand).status == 0)

        // 12. Upgrade (the same package again): the edited settings and the secrets stay. A page
        // opened before keeps its stylesheet (issue 23, item 4): a name the old version had and
        // the new one lacks (made here, and removed after as dpkg would) is served from the set
        // the upgrade kept.
        let oldName = "/static/app.0123456789ab.css"
        let shipped = walk.root + "/usr/share/metadata-demo"
        try FileManager.default.copyItem(atPath: shipped + "/static/app.css", toPath: shipped + oldName)
        try walk.install()
        try FileManager.default.removeItem(atPath: shipped + oldName)
        let keptStylesheet = try walk.nginx?.fetch(oldName)
        #expect(
            keptStylesheet?.status == 200
                && keptStylesheet?.headers["cache-control"] == "public, max-age=31536000, immutable")
        #expect(try walk.nginx?.fetch("/static/app.000000000000.css").status == 404)
        let settings = try String(contentsOfFile: conf + "/metadata-demo.env", encoding: .utf8)
        #expect(settings.contains("AUTH0_CLIENT_ID=\(walk.stack.devEnvironment["AUTH0_CLIENT_ID"] ?? "")"))
        #expect(try String(contentsOfFile: conf + "/cookie-secret", encoding: .utf8) == newest)
        #expect(try walk.guide(checkCommand).status == 0)

        // 15. Backups hold the secrets.
        let backup =
            "tar -czf /root/metadata-demo-config.tgz /etc/metadata-demo /etc/nginx/sites-available/metadata-demo"
        #expect(try walk.guide(backup).status == 0)
        let archive = try Stack.check("/bin/tar", ["-tzf", walk.root + "/root/metadata-demo-config.tgz"])
        #expect(archive.contains("metadata-demo/client-secret") && archive.contains("metadata-demo/cookie-secret"))

        // 16. Purge: the secrets, settings and ledger go.
        walk.stopWorker()
        try walk.purge()
        for gone in ["/etc/metadata-demo", "/usr/bin/metadata-demo", "/var/lib/metadata-demo"] {
            #expect(!FileManager.default.fileExists(atPath: walk.root + gone), "\(gone) left after purge")
        }

        // 15 again: the restore, unattended (issue 23, item 3). dpkg asked about the restored
        // conffiles and, with no terminal, failed; the guide's lines keep them without asking.
        let restored = try walk.restore(archive: "tar -xzf /root/metadata-demo-config.tgz -C /")
        #expect(restored.withoutKeeping.status != 0 && restored.withoutKeeping.output.contains("conffile prompt"))
        let kept = try String(contentsOfFile: conf + "/metadata-demo.env", encoding: .utf8)
        #expect(kept.contains("AUTH0_CLIENT_ID=\(walk.stack.devEnvironment["AUTH0_CLIENT_ID"] ?? "")"))
        #expect(try String(contentsOfFile: conf + "/cookie-secret", encoding: .utf8) == newest)
        #expect(try walk.guide(checkCommand).status == 0)
        print(
            "PackageTests: from installation to a page through nginx in \(setUpIn), the whole guide in \(ContinuousClock.now - started)"
        )
    }
}
