import Foundation
import Glibc
import Testing

/// The package's units under a booted systemd (Debian 12 in a container, systemd as PID 1), as
/// an operator meets them: issue 23's walk, items 1 and 5.
@Suite(.serialized) struct BootedUnitTests {
    private static let secret = "dev-client-secret-not-for-production-0123456789"

    private func settings(_ stack: Stack, extra: String = "") -> String {
        """
        AUTH0_DOMAIN=\(stack.tenantURL)
        AUTH0_CLIENT_ID=metadata-demo-dev
        APP_BASE_URL=\(stack.baseURL)
        FASTCGI_PEER_USERS=www-data
        LOG_LEVEL=info
        \(extra)
        """
    }

    /// What the worker behind the socket answers to GET /healthz, or nil when nothing answers.
    private func health(_ debian: BootedDebian) -> String? {
        guard let fd = Stack.connect(unixSocket: debian.hostPath("/run/metadata-demo/1.sock")) else { return nil }
        defer { close(fd) }
        var client = FastCGITestClient(socket: fd, timeoutSeconds: 5)
        return try? client.get("/healthz")
    }

    /// Review 3, item 1: under systemd's default start limit (5 starts in 10 s), a handful of
    /// crashes in a row left the worker and its socket failed until `systemctl reset-failed`.
    /// Eight crashes, each as soon as the worker is back: it comes back every time, the socket
    /// never fails, and the worker answers after.
    @Test func aCrashLoopDoesNotFailTheWorkerOrItsSocket() throws {
        let stack = try Stack(workers: 0)
        defer { stack.stop() }
        let debian = try BootedDebian(package: try PackageTests.package())
        defer { debian.stop() }
        try debian.check("printf %s '\(Self.secret)' > /etc/metadata-demo/client-secret")
        try debian.check("cat > /etc/metadata-demo/metadata-demo.env <<'EOF'\n\(settings(stack))\nEOF")
        try debian.check("systemctl enable --now metadata-demo@1.socket metadata-demo@1.service")
        #expect(health(debian)?.hasPrefix("Status: 200") == true)
        // The crash as a request of death gives it: the kernel's SIGILL of a Swift trap.
        let crashes = """
            last=0
            for i in 1 2 3 4 5 6 7 8; do
              pid=0; n=0
              while { [ "$pid" = 0 ] || [ "$pid" = "$last" ]; } && [ $n -lt 300 ]; do
                pid=$(systemctl show -p MainPID --value metadata-demo@1.service); n=$((n+1)); sleep 0.05
              done
              [ "$pid" != 0 ] && [ "$pid" != "$last" ] || break  # not started again
              kill -ILL "$pid"; last=$pid
            done
            """
        try debian.check(crashes)
        var state = ""
        for _ in 0..<100 where state != "active" {
            usleep(100_000)
            state = try debian.property("ActiveState", of: "metadata-demo@1.service")
        }
        #expect(state == "active", "the worker is \(state)")
        #expect(try debian.property("ActiveState", of: "metadata-demo@1.socket") != "failed")
        #expect(try debian.property("Result", of: "metadata-demo@1.socket") == "success")
        #expect(Int(try debian.property("NRestarts", of: "metadata-demo@1.service")) ?? 0 >= 8)
        #expect(try debian.property("MemoryMax", of: "metadata-demo@1.service") == String(512 << 20))
        #expect(health(debian)?.hasPrefix("Status: 200") == true)
    }

    /// Issue 43, item 1: a scripted `apt install -y` of a newer package over a settings file the
    /// operator had edited stopped at dpkg's question ("end of file on stdin at conffile prompt"),
    /// left the package half-configured and the workers on the old code, silently. The running
    /// worker now says so in its status line, and the guide's unattended command upgrades,
    /// keeping the operator's file (the new one beside it as .dpkg-dist), onto the new version.
    @Test func anUnattendedUpgradeOverAnEditedSettingsFileRunsTheNewVersion() throws {
        let stack = try Stack(workers: 0)
        defer { stack.stop() }
        let next = try PackageVersions.next(of: try PackageTests.package(), version: "1.0.1", changingSettings: true)
        let debian = try BootedDebian(package: try PackageTests.package())
        defer { debian.stop() }
        let guide = try String(contentsOfFile: Stack.repoRoot + "/deploy/README.md", encoding: .utf8)
        try debian.check("printf %s '\(Self.secret)' > /etc/metadata-demo/client-secret")
        try debian.check("cat > /etc/metadata-demo/metadata-demo.env <<'EOF'\n\(settings(stack))\nEOF")
        try debian.check("systemctl enable --now metadata-demo@1.socket metadata-demo@1.service")
        #expect(health(debian)?.hasPrefix("Status: 200") == true)
        try FileManager.default.copyItem(atPath: next, toPath: debian.hostPath("/root/metadata-demo_1.0.1_amd64.deb"))
        let before = try debian.property("MainPID", of: "metadata-demo@1.service")

        // As a script ran it before: dpkg's question has no terminal to ask.
        let asked = try debian.run("cd /root && apt-get install -y ./metadata-demo_1.0.1_amd64.deb < /dev/null")
        #expect(asked.status != 0 && asked.output.contains("conffile prompt"), "\(asked.output.suffix(800))")
        var status = ""
        for _ in 0..<150 where !status.contains("not running") {
            usleep(100_000)
            status = try debian.property("StatusText", of: "metadata-demo@1.service")
        }
        #expect(status.contains("is installed but not running: restart"), "status: \(status)")

        let unattended =
            "apt-get install -y -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold "
            + "./metadata-demo_1.0.1_amd64.deb"
        #expect(guide.contains(unattended), "the guide no longer says \(unattended)")
        let upgraded = try debian.run("cd /root && \(unattended) < /dev/null")
        #expect(upgraded.status == 0, "\(upgraded.output.suffix(800))")
        #expect(
            try debian.check("dpkg-query -W -f='${Version} ${Status}' metadata-demo") == "1.0.1 install ok installed")
        #expect(
            try debian.check("cat /etc/metadata-demo/metadata-demo.env").contains("LOG_LEVEL=info"), "the edit kept")
        #expect(try debian.run("test -f /etc/metadata-demo/metadata-demo.env.dpkg-dist").status == 0)
        let after = try debian.property("MainPID", of: "metadata-demo@1.service")
        #expect(after != before && after != "0", "the worker was not restarted on the new version")
        #expect(try debian.run("readlink /proc/\(after)/exe").output.contains("deleted") == false)
        #expect(health(debian)?.hasPrefix("Status: 200") == true)
        #expect(try debian.property("StatusText", of: "metadata-demo@1.service") == "serving")
    }

    /// Issue 43, item 3: a trial without Auth0. The trial package's one command turns it on (the
    /// trial tenant as a unit on loopback, its nginx site, the product's settings pointed at it),
    /// a demo person logs in through nginx, check-config refuses the trial's settings as a
    /// production's, and the other command puts back what was there before.
    @Test func theTrialLogsInThroughNginxWithoutAuth0AndEndsAsItBegan() throws {
        let package = try PackageTests.package()
        let debian = try BootedDebian(package: package, also: [Self.trialPackage(beside: package)])
        defer { debian.stop() }
        let guide = try String(contentsOfFile: Stack.repoRoot + "/deploy/README.md", encoding: .utf8)
        let settingsBefore = try debian.check("cat /etc/metadata-demo/metadata-demo.env")
        for command in ["apt install ./metadata-demo-trial_1.0.0_amd64.deb", "metadata-demo-trial on"] {
            #expect(guide.contains(command), "the guide no longer says \(command)")
        }
        let on = try debian.check("metadata-demo-trial on")
        #expect(on.contains("http://127.0.0.1:8080/") && on.contains("skippy@example.com"), "\(on)")

        let (app, tenant) = ("http://127.0.0.1:8080", "http://127.0.0.1:8081")
        let browser = TestClient()
        let login = try browser.get(app + "/login")
        let authorize = try #require(login.header("location"))
        #expect(authorize.hasPrefix(tenant + "/authorize?"))
        let callback = try browser.signIn(
            at: authorize, email: DemoUser.skippy.email, password: DemoUser.skippy.password)
        #expect(try browser.get(callback).status == 302)
        let home = try browser.get(app + "/")
        #expect(home.status == 200 && home.body.contains("You’re logged in!"), "\(home.body.prefix(400))")
        #expect(try browser.get(app + "/static/app.css").status == 200)

        let check =
            "CREDENTIALS_DIRECTORY=/etc/metadata-demo metadata-demo check-config --env-file /etc/metadata-demo/metadata-demo.env"
        #expect(guide.contains(check))
        let refused = try debian.run(check)
        #expect(refused.status != 0 && refused.output.contains("TRIAL_MODE: on: these are the trial's settings"))

        #expect(guide.contains("metadata-demo-trial off"))
        try debian.check("metadata-demo-trial off")
        #expect(try debian.check("cat /etc/metadata-demo/metadata-demo.env") == settingsBefore)
        #expect(try debian.property("ActiveState", of: "metadata-demo-trial-tenant.service") == "inactive")
        #expect(try debian.property("ActiveState", of: "metadata-demo@1.service") == "inactive")
        #expect(try debian.run("test -e /etc/nginx/sites-enabled/metadata-demo-trial").status != 0)
    }

    /// Issue 23, item 1: with a wrong setting, every connection nginx made started the service
    /// again; in 0.3 s the start limit was hit and the socket failed (service-start-limit-hit),
    /// and the guide's restart failed after the file was fixed. Now the unit stops once, with
    /// one line per problem, the socket is left stopped but not failed, and the guide's commands
    /// bring both back.
    @Test func aWrongSettingWithTrafficStopsTheUnitOnceAndTheGuidesCommandsBringItBack() throws {
        let stack = try Stack(workers: 0)
        defer { stack.stop() }
        let debian = try BootedDebian(package: try PackageTests.package())
        defer { debian.stop() }
        let guide = try String(contentsOfFile: Stack.repoRoot + "/deploy/README.md", encoding: .utf8)
        try debian.check("printf %s '\(Self.secret)' > /etc/metadata-demo/client-secret")
        try debian.check(
            "cat > /etc/metadata-demo/metadata-demo.env <<'EOF'\n\(settings(stack, extra: "AUTH0_LOGOUT=v2   # or oidc"))\nEOF"
        )
        try debian.check("systemctl enable --now metadata-demo@1.socket")
        // nginx's traffic: a dozen connections over a second, each answered by no one.
        for _ in 0..<12 {
            _ = health(debian)
            usleep(100_000)
        }
        usleep(2_000_000)
        let socketState = try debian.property("ActiveState", of: "metadata-demo@1.socket")
        let socketResult = try debian.property("Result", of: "metadata-demo@1.socket")
        #expect(socketState != "failed" && socketResult == "success", "socket \(socketState), \(socketResult)")
        #expect(try debian.property("ActiveState", of: "metadata-demo@1.service") == "failed")
        #expect(try debian.property("ExecMainStatus", of: "metadata-demo@1.service") == "2")
        let journal = try debian.check("journalctl -u metadata-demo@1.service -o cat --no-pager")
        let problemLines = journal.split(separator: "\n").filter { $0.contains("AUTH0_LOGOUT") }
        #expect(problemLines.count == 1, "\(journal.suffix(1500))")
        #expect(problemLines.first?.contains("comment") == true, "\(problemLines)")
        // Issue 43, item 5: the unit's own line names the problem, where "Job … canceled" did not.
        let statusText = try debian.property("StatusText", of: "metadata-demo@1.service")
        #expect(statusText.hasPrefix("stopped, a setting is wrong: AUTH0_LOGOUT"), "status: \(statusText)")
        // Fixed, then the guide's commands, word for word.
        try debian.check("cat > /etc/metadata-demo/metadata-demo.env <<'EOF'\n\(settings(stack))\nEOF")
        for command in [
            "systemctl reset-failed 'metadata-demo@*'",
            "systemctl restart metadata-demo@1.socket metadata-demo@1.service",
        ] {
            #expect(guide.contains(command), "the guide no longer says \(command)")
            try debian.check(command)
        }
        #expect(health(debian)?.hasPrefix("Status: 200") == true)
        // Item 5: the first thing systemctl status shows is what the worker does.
        let status = try debian.run("systemctl status --no-pager metadata-demo@1.service").output
        #expect(status.contains("Status: \"serving\""), "\(status.prefix(800))")
        // Item 4: the dynamic user has its name (libnss-systemd), as the guide says.
        let user = try debian.check("stat -c %U /proc/$(systemctl show -p MainPID --value metadata-demo@1.service)")
        #expect(user.trimmingCharacters(in: .whitespacesAndNewlines) == "metadata-demo", "\(user)")
        // Item 4: a purge leaves no socket behind and no unit systemd lists as not-found.
        try debian.check("dpkg --purge metadata-demo")
        #expect(try debian.run("test -e /run/metadata-demo/1.sock").status != 0)
        let units = try debian.check("systemctl list-units --all --plain --no-legend 'metadata-demo*'")
        #expect(units.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "\(units)")
    }
}
