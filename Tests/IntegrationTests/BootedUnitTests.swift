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
