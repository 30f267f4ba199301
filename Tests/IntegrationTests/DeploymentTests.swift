import Foundation
import OpenSSLCrypto
import Testing
import Web

/// The deployment files pass their checks, the worker refuses bad settings clearly, and
/// `check-config` reaches the tenant.
@Suite struct DeploymentTests {
    private func run(_ path: String, _ arguments: [String], environment: [String: String] = [:], clean: Bool = false)
        throws -> (status: Int32, output: String)
    {
        try Stack.run(path, arguments, environment: environment, clean: clean)
    }

    @Test func productionNginxSitePassesNginxT() throws {
        let dir = NSTemporaryDirectory() + "site-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let cert = try run(
            "/usr/bin/openssl",
            [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=demo.example.com",
                "-keyout", dir + "/privkey.pem", "-out", dir + "/fullchain.pem",
            ])
        #expect(cert.status == 0, "\(cert.output)")
        let site = try String(contentsOfFile: Stack.repoRoot + "/deploy/nginx-site.conf", encoding: .utf8)
            .replacingOccurrences(of: "/etc/letsencrypt/live/demo.example.com", with: dir)
            .replacingOccurrences(of: "/var/log/nginx/", with: dir + "/")
        try ProductionNginx.writeConfig(site: site, in: dir)
        let check = try run("/usr/sbin/nginx", ["-t", "-p", dir, "-c", dir + "/nginx.conf"])
        #expect(check.status == 0, "\(check.output)")
        #expect(check.output.contains("test is successful"))
    }

    /// The shipped units are hardened, fail loudly, and systemd finds nothing to say about them
    /// (an unknown key or a bad value is only a warning to it, and the unit then runs without it:
    /// so any output fails the test). `make test` installs systemd for `systemd-analyze`.
    @Test func systemdFindsNothingWrongInTheUnits() throws {
        let dir = NSTemporaryDirectory() + "units-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let units = [
            "metadata-demo@.socket", "metadata-demo@.service", "metadata-demo-example-app@.socket",
            "metadata-demo-example-app@.service", "metadata-demo-example-api@.socket",
            "metadata-demo-example-api@.service",
        ]
        for unit in units {
            // ExecStart must name a program that exists here: the one the tests built.
            let text = try String(contentsOfFile: Stack.repoRoot + "/deploy/systemd/" + unit, encoding: .utf8)
                .replacingOccurrences(
                    of: "ExecStart=/usr/bin/metadata-demo", with: "ExecStart=" + Stack.binDir + "/metadata-demo")
            try text.write(toFile: dir + "/" + unit, atomically: true, encoding: .utf8)
        }
        let service = try String(contentsOfFile: dir + "/metadata-demo@.service", encoding: .utf8)
        for setting in [
            "DynamicUser=yes", "NoNewPrivileges=yes", "ProtectSystem=strict", "PrivateTmp=yes",
            "RestrictAddressFamilies=", "CapabilityBoundingSet=", "Restart=on-failure", "LoadCredential=",
            "Environment=FASTCGI_LISTEN=systemd", "Type=notify", "RestartPreventExitStatus=2", "WatchdogSec=",
            "Requires=metadata-demo@%i.socket", "User=metadata-demo",
        ] {
            #expect(service.contains(setting), "\(setting)")
        }
        // Templates are checked through instances, as systemd loads them.
        let verify = try run(
            "/usr/bin/systemd-analyze",
            [
                "verify", dir + "/metadata-demo@1.socket", dir + "/metadata-demo@1.service",
                dir + "/metadata-demo-example-app@announcements.socket",
                dir + "/metadata-demo-example-app@announcements.service",
                dir + "/metadata-demo-example-api@announcements.socket",
                dir + "/metadata-demo-example-api@announcements.service",
            ])
        #expect(verify.status == 0)
        #expect(verify.output.isEmpty, "\(verify.output)")
    }

    /// The shipped Prometheus config and alerts pass promtool, and its rule tests (each alert
    /// fires on trouble and stays quiet on a healthy worker) pass. `make test` installs Debian's
    /// prometheus for promtool.
    @Test func prometheusConfigAndAlertsPassPromtool() throws {
        let folder = Stack.repoRoot + "/deploy/prometheus/"
        let config = try run("/usr/bin/promtool", ["check", "config", folder + "prometheus.yml"])
        #expect(config.status == 0, "\(config.output)")
        #expect(config.output.contains("1 rule files found"))
        let rules = try run("/usr/bin/promtool", ["check", "rules", folder + "metadata-demo.rules.yml"])
        #expect(rules.status == 0 && rules.output.contains("8 rules found"), "\(rules.output)")
        let tests = try run("/usr/bin/promtool", ["test", "rules", folder + "metadata-demo.rules.test.yml"])
        #expect(tests.status == 0 && tests.output.contains("SUCCESS"), "\(tests.output)")
    }

    /// Issue 23, item 4: adding the job, the rules and a second worker to Debian's own
    /// prometheus.yml was a hand-merge the guide left to guessing. Its lines, word for word, on a
    /// copy of the file Debian's prometheus installs, make a config promtool accepts, scraping
    /// both workers with the alerts loaded.
    @Test func theGuidesPrometheusLinesMergeIntoDebiansConfig() throws {
        let guide = try String(contentsOfFile: Stack.repoRoot + "/deploy/README.md", encoding: .utf8)
        let dir = NSTemporaryDirectory() + "prometheus-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: "/etc/prometheus/prometheus.yml", toPath: dir + "/prometheus.yml")
        let examples = "/usr/share/doc/metadata-demo/examples/prometheus/"
        let commands = [
            "cp /usr/share/doc/metadata-demo/examples/prometheus/metadata-demo.rules.yml /etc/prometheus/",
            "sed -i 's/^rule_files:$/rule_files:\\n  - metadata-demo.rules.yml/' /etc/prometheus/prometheus.yml",
            "cat /usr/share/doc/metadata-demo/examples/prometheus/scrape-job.yml >> /etc/prometheus/prometheus.yml",
            """
            cat >> /etc/prometheus/prometheus.yml <<'END'
                  - targets: ["127.0.0.1:9145"]
                    labels:
                      __metrics_path__: /metrics/2
                      worker: "2"
            END
            """,
        ]
        for command in commands {
            #expect(guide.contains(command), "the guide no longer says: \(command)")
            let local = command.replacingOccurrences(of: examples, with: Stack.repoRoot + "/deploy/prometheus/")
                .replacingOccurrences(of: "/etc/prometheus/", with: dir + "/")
            #expect(try run("/bin/bash", ["-c", local]).status == 0, "\(local)")
        }
        let checked = try run("/usr/bin/promtool", ["check", "config", dir + "/prometheus.yml"])
        #expect(checked.status == 0 && checked.output.contains("1 rule files found"), "\(checked.output)")
        let merged = try String(contentsOfFile: dir + "/prometheus.yml", encoding: .utf8)
        #expect(merged.contains("job_name: metadata-demo") && merged.contains("__metrics_path__: /metrics/2"))
    }

    @Test func workerRefusesBadSettingsWithOneLineEach() throws {
        let answer = try run(
            Stack.binDir + "/metadata-demo", [],
            environment: [
                "AUTH0_DOMAIN": "http://evil.example", "WORKER_THREADS": "0", "APP_BASE_URL": "ftp://x",
                "FCGI_WEB_SERVER_ADDRS": "127.0.0.1,nginx.internal",
            ],
            clean: true)
        #expect(answer.status == 2)
        let lines = answer.output.split(separator: "\n")
        for name in [
            "WORKER_THREADS", "AUTH0_DOMAIN", "AUTH0_CLIENT_ID", "AUTH0_CLIENT_SECRET", "AUTH0_SECRET", "APP_BASE_URL",
            "FCGI_WEB_SERVER_ADDRS",
        ] {
            #expect(lines.filter { $0.hasPrefix("metadata-demo: \(name):") }.count == 1, "\(name) in \(answer.output)")
        }
    }

    @Test func checkConfigReachesTheTenantOrSaysWhy() throws {
        let stack = try Stack()
        defer { stack.stop() }
        let stateFile = try #require(stack.devEnvironment["DEV_TENANT_STATE_FILE"])
        let stateBefore = FileManager.default.contents(atPath: stateFile)
        let good = try run(Stack.binDir + "/metadata-demo", ["check-config"], environment: stack.devEnvironment)
        #expect(good.status == 0, "\(good.output)")
        #expect(good.output.contains("client credentials accepted"))
        #expect(FileManager.default.contents(atPath: stateFile) == stateBefore)  // nothing made at the tenant
        var wrong = stack.devEnvironment
        wrong["AUTH0_DOMAIN"] = "http://127.0.0.1:\(try Stack.freePort())"
        let unreachable = try run(Stack.binDir + "/metadata-demo", ["check-config"], environment: wrong)
        #expect(unreachable.status == 1)
        #expect(unreachable.output.contains("AUTH0_DOMAIN:"))
    }

    /// `--env-file` reads the settings as systemd's EnvironmentFile= will: a clean environment
    /// and the file pass check-config; a trailing comment, which a shell check would have dropped
    /// and systemd keeps in the value, is a line naming the file, the line and the setting, for
    /// check-config and for the worker alike.
    @Test func theEnvFileIsJudgedAsSystemdWillReadIt() throws {
        let stack = try Stack()
        defer { stack.stop() }
        let path = stack.runDir + "/metadata-demo.env"
        var lines = ["# written by the test", ""]
        // The worker's settings alone: the dev tenant's own (DEV_TENANT_*) are no setting of the
        // worker, and check-config names such a line (a misspelt name does nothing).
        for (name, value) in stack.devEnvironment.sorted(by: { $0.key < $1.key })
        where name != "AUTH0_SCOPE" && !name.hasPrefix("DEV_TENANT_") {
            lines.append("\(name)=\(value)")
        }
        lines.append("AUTH0_SCOPE=openid profile email offline_access")  // unquoted spaces: fine for systemd
        try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let good = try run(Stack.binDir + "/metadata-demo", ["check-config", "--env-file", path], clean: true)
        #expect(good.status == 0, "\(good.output)")

        lines.append("AUTH0_LOGOUT=v2   # or oidc")
        try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let check = try run(Stack.binDir + "/metadata-demo", ["check-config", "--env-file", path], clean: true)
        #expect(check.status == 1)
        let line = lines.count
        #expect(
            check.output.contains("metadata-demo: \(path): line \(line): AUTH0_LOGOUT: the value ends with a comment"),
            "\(check.output)")
        let start = try run(Stack.binDir + "/metadata-demo", ["--env-file", path], clean: true)
        #expect(start.status == 2)
        #expect(start.output.contains("line \(line): AUTH0_LOGOUT: the value ends with a comment"))
        // Its ledger goes in the run folder (unset, STATE_DIR is `state` under the current folder).
        let missing = try run(
            Stack.binDir + "/metadata-demo", ["check-config", "--env-file", path + ".nope"],
            environment: ["STATE_DIR": stack.runDir + "/state"], clean: true)
        #expect(missing.status == 1)
        #expect(missing.output.contains("--env-file: \(path).nope cannot be read"))
    }

    /// A wrong client secret or id passes discovery and the keys, and is caught at the token
    /// endpoint, told apart from a tenant that does not answer; the secret is never printed.
    @Test func checkConfigProvesTheClientCredentials() throws {
        let stack = try Stack()
        defer { stack.stop() }
        var environment = stack.devEnvironment
        environment["AUTH0_CLIENT_SECRET"] = "not-the-secret-0123456789-0123456789-0123456789"
        environment["AUTH0_CLIENT_SECRET_FILE"] = nil
        let wrongSecret = try run(Stack.binDir + "/metadata-demo", ["check-config"], environment: environment)
        #expect(wrongSecret.status == 1)
        #expect(
            wrongSecret.output.contains(
                "AUTH0_CLIENT_ID or AUTH0_CLIENT_SECRET: the tenant refused the application's credentials (401"),
            "\(wrongSecret.output)")
        #expect(!wrongSecret.output.contains("not-the-secret"))
        environment = stack.devEnvironment
        environment["AUTH0_CLIENT_ID"] = "no-such-application"
        let wrongID = try run(Stack.binDir + "/metadata-demo", ["check-config"], environment: environment)
        #expect(wrongID.status == 1)
        #expect(wrongID.output.contains("the tenant refused the application's credentials"), "\(wrongID.output)")
    }

    @Test func checkConfigReachesTheSessionLedgerAndNamesItsSetting() throws {
        let stack = try Stack()
        defer { stack.stop() }
        var environment = stack.devEnvironment
        let closed = try Stack.freePort()
        environment["SESSION_STORE"] = "redis://:secret-pw@127.0.0.1:\(closed)/0"
        let noRedis = try run(Stack.binDir + "/metadata-demo", ["check-config"], environment: environment)
        #expect(noRedis.status == 1)
        #expect(noRedis.output.contains("metadata-demo: SESSION_STORE: Redis 127.0.0.1:\(closed): cannot connect"))
        #expect(!noRedis.output.contains("secret-pw"))
        environment["SESSION_STORE"] = "rediss://:secret-pw@127.0.0.1:6380/0"
        let tls = try run(Stack.binDir + "/metadata-demo", ["check-config"], environment: environment)
        #expect(tls.status == 1)
        #expect(tls.output.contains("SESSION_STORE: rediss:// (TLS) is not available"))
        #expect(!tls.output.contains("secret-pw"))
        // A state folder that cannot be made stops start-up naming STATE_DIR.
        environment["SESSION_STORE"] = nil
        environment["STATE_DIR"] = "/proc/no-such-folder"
        environment["FASTCGI_LISTEN"] = "unix:" + stack.runDir + "/never.sock"
        let start = try run(Stack.binDir + "/metadata-demo", [], environment: environment)
        #expect(start.status == 2)
        #expect(start.output.contains("metadata-demo: STATE_DIR:"), "\(start.output)")
    }

    @Test func aMissingTemplateIsNamedByCheckConfigAndStopsStartUp() throws {
        let stack = try Stack()
        defer { stack.stop() }
        let templates = NSTemporaryDirectory() + "templates-\(UUID().uuidString.prefix(8))"
        try FileManager.default.copyItem(atPath: Stack.repoRoot + "/Templates", toPath: templates)
        try FileManager.default.removeItem(atPath: templates + "/profile.html")
        var environment = stack.devEnvironment
        environment["TEMPLATES_DIR"] = templates
        let check = try run(Stack.binDir + "/metadata-demo", ["check-config"], environment: environment)
        #expect(check.status == 1)
        #expect(check.output.contains("metadata-demo: TEMPLATES_DIR: profile.html"), "\(check.output)")
        environment["FASTCGI_LISTEN"] = "unix:" + templates + "/worker.sock"
        let start = try run(Stack.binDir + "/metadata-demo", [], environment: environment)
        #expect(start.status == 2)  // as every bad setting: start-up stops before serving
        #expect(start.output.contains("metadata-demo: TEMPLATES_DIR: profile.html"), "\(start.output)")
    }

    /// A word a template asks for and the language's catalogue lacks stops start-up as a broken
    /// template does, naming the template's line, the key and the catalogue.
    @Test func aMissingCatalogueWordStopsStartUp() throws {
        let stack = try Stack()
        defer { stack.stop() }
        let templates = NSTemporaryDirectory() + "templates-\(UUID().uuidString.prefix(8))"
        try FileManager.default.copyItem(atPath: Stack.repoRoot + "/Templates", toPath: templates)
        let catalogue = templates + "/i18n/en.json"
        let text = try String(contentsOfFile: catalogue, encoding: .utf8)
        try text.split(separator: "\n").filter { !$0.contains("\"profile.save\"") }.joined(separator: "\n")
            .write(toFile: catalogue, atomically: true, encoding: .utf8)
        var environment = stack.devEnvironment
        environment["TEMPLATES_DIR"] = templates
        environment["FASTCGI_LISTEN"] = "unix:" + templates + "/worker.sock"
        let start = try run(Stack.binDir + "/metadata-demo", [], environment: environment)
        #expect(start.status == 2)
        let profile = try String(contentsOfFile: templates + "/profile.html", encoding: .utf8)
        let line = try #require(profile.split(separator: "\n").firstIndex { $0.contains("[[profile.save]]") }) + 1
        #expect(
            start.output.contains(
                "TEMPLATES_DIR: \(templates)/profile.html:\(line): no string \"profile.save\" in \(catalogue)"),
            "\(start.output)")
    }
}

/// Single sign-on for sibling apps behind the same nginx.
@Suite(.serialized) final class SiblingAppTests {
    let stack: Stack
    init() throws { stack = try Stack() }
    deinit { stack.stop() }

    @Test(arguments: ["/mini/page", "/mini/page?a=1&b=two%20words", "/mini/search?q=%26&x=%3F#"])
    func loggedOutVisitorIsSentToLoginAndComesBackToTheWholeAddress(asked: String) throws {
        let browser = TestClient()
        let first = try browser.get(stack.baseURL + asked)
        #expect(first.status == 302)
        let login = try #require(first.header("location"))
        let expected = asked.split(separator: "#", omittingEmptySubsequences: false)[0]  // never sent
        #expect(login == stack.baseURL + "/login?" + PercentEncoding.formEncode([("returnTo", String(expected))]))
        let authorize = try #require(try browser.get(login).header("location"))
        let callback = try browser.get(
            try browser.signIn(at: authorize, email: DemoUser.skippy.email, password: DemoUser.skippy.password))
        #expect(callback.header("location") == String(expected))
        let mini = try browser.get(stack.baseURL + expected)
        #expect(mini.status == 200)
        #expect(MiniAppPage(mini.body).title == "mini app")
        #expect(MiniAppPage(mini.body).signedIn == MiniAppPage.loggedIn("skippy@example.com"))
    }

    /// The assertion `/auth/check` signs for the visitor holding `browser`'s cookies.
    private func assertion(for browser: TestClient) throws -> String {
        try stack.checkHeader("X-Auth-Assertion", for: browser, check: "/auth/check")
    }

    /// What the sample sibling app answers when asked directly on its socket with `headers`:
    /// its status, a space, and its text.
    /// The sibling's answer to a request with `headers`, as "STATUS WHAT": for a page, its title
    /// and who it says is logged in; for a refusal, the reason it logged (the page a person sees
    /// says only that who they are could not be confirmed).
    private func askSibling(_ headers: [(String, String)]) throws -> String {
        let output = try Stack.check(
            "/usr/bin/curl",
            ["-s", "-w", "\n%{http_code}", "--unix-socket", stack.runDir + "/mini.sock", "http://mini/mini/"]
                + headers.flatMap { ["-H", "\($0.0): \($0.1)"] })
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false)
        let status = String(lines.last ?? "")
        let body = lines.dropLast().joined(separator: "\n")
        guard status == "200" else {
            let mark = "mini_app: refused a request: "
            let said = try stack.log("mini-app").split(separator: "\n").last { $0.hasPrefix(mark) }
            return status + " " + (said.map { String($0.dropFirst(mark.count)) } ?? body)
        }
        let page = MiniAppPage(body)
        return "200 \(page.title): \(page.signedIn)"
    }

    /// Issue 27, item 3: a sibling on another host verifies who the visitor is on its own (PyJWT,
    /// with the product's published keys), and refuses an assertion changed on the way, one signed
    /// by another key, one for another audience, and bare X-Auth-* headers.
    @Test func theSiblingVerifiesTheSignedIdentityAndRefusesATamperedOne() throws {
        let browser = TestClient()
        try browser.logIn(stack, as: DemoUser.skippy)
        // A header the visitor sends is not what the sibling gets: nginx sets it from /auth/check.
        let mini = try browser.get(stack.baseURL + "/mini/", headers: [("X-Auth-Assertion", "forged")])
        #expect(mini.status == 200 && MiniAppPage(mini.body).signedIn == MiniAppPage.loggedIn("skippy@example.com"))

        let token = try assertion(for: browser)
        #expect(
            try askSibling([("X-Auth-Assertion", token)])
                == "200 mini app: Logged in as skippy@example.com (skippy@example.com)")
        let parts = token.split(separator: ".").map(String.init)
        try #require(parts.count == 3)
        let payload = try #require(Base64URL.decode(parts[1]))
        var claims = try #require(JSONValue.parse(payload))
        #expect(claims["aud"]?.string == stack.baseURL + "/mini/" && claims["iss"]?.string == stack.baseURL + "/")
        #expect((claims["exp"]?.number ?? 0) - (claims["iat"]?.number ?? 0) == 60)
        // Someone on the way makes it say another person.
        if case .object(var members) = claims {
            members["sub"] = "auth0|someone-else"
            claims = .object(members)
        }
        let tampered = parts[0] + "." + Base64URL.encode(claims.serialized()) + "." + parts[2]
        #expect(try askSibling([("X-Auth-Assertion", tampered)]).hasPrefix("401 identity assertion refused"))
        // Signed by a key the product does not publish (its own header and claims, kept whole).
        let stranger = try ECPrivateKey()
        let signingInput = parts[0] + "." + parts[1]
        let foreign = signingInput + "." + Base64URL.encode(try stranger.signES256(Array(signingInput.utf8)))
        #expect(try askSibling([("X-Auth-Assertion", foreign)]).hasPrefix("401 identity assertion refused"))
        // Headers alone prove nothing to it.
        #expect(try askSibling([("X-Auth-User-Id", "auth0|someone-else")]).hasPrefix("401 no identity assertion"))

        let keys = try browser.get(stack.baseURL + "/.well-known/jwks.json")
        #expect(keys.status == 200 && (keys.header("cache-control") ?? "").contains("max-age=300"))
        let set = try #require(JSONValue.parse(Array(keys.body.utf8))?["keys"]?.array)
        #expect(set.count == 1 && set[0]["kty"]?.string == "EC" && set[0]["crv"]?.string == "P-256")
        #expect(set[0]["d"] == nil, "the private part is never published")
    }

    /// Review 3, smaller: an assertion taken from an earlier request (a log, a proxy) opened the
    /// sibling for the rest of its minute, and each made-up `kid` cost the site a key fetch. Now
    /// each assertion opens the requests of one moment (its `jti`, a second from its first use:
    /// issue 49 shares one signature among a page and what it brings), names its login (`sid`),
    /// and unknown kids make the sibling fetch the keys again at most once per 30 s.
    @Test func anAssertionOpensOneRequestAndMadeUpKeyIDsDoNotHammerTheSite() throws {
        let browser = TestClient()
        try browser.logIn(stack, as: DemoUser.skippy)
        let token = try assertion(for: browser)
        #expect(try askSibling([("X-Auth-Assertion", token)]).hasPrefix("200 mini app: Logged in as"))
        #expect(
            try askSibling([("X-Auth-Assertion", token)]).hasPrefix("200 mini app: Logged in as"), "the same moment")
        Thread.sleep(forTimeInterval: 1.2)  // the sibling's window: a second from the first use
        #expect(try askSibling([("X-Auth-Assertion", token)]).hasPrefix("401 identity assertion refused"))
        let next = try assertion(for: browser)
        #expect(try askSibling([("X-Auth-Assertion", next)]).hasPrefix("200 mini app: Logged in as"))
        let claims = try [token, next].map { token -> JSONValue in
            let payload = try #require(Base64URL.decode(token.split(separator: ".")[1]))
            return try #require(JSONValue.parse(payload))
        }
        #expect(claims[0]["jti"] != claims[1]["jti"] && claims[0]["sid"] == claims[1]["sid"])
        #expect(claims[0]["sid"]?.string?.isEmpty == false)

        let fetches = { try self.stack.log("worker").components(separatedBy: "route=/.well-known/jwks.json").count - 1 }
        let before = try fetches()
        let stranger = try ECPrivateKey()
        let payload = String(token.split(separator: ".")[1])
        for index in 0..<30 {
            let header = Base64URL.encode(Array(#"{"alg":"ES256","typ":"JWT","kid":"made-up-\#(index)"}"#.utf8))
            let input = header + "." + payload
            let forged = input + "." + Base64URL.encode(try stranger.signES256(Array(input.utf8)))
            #expect(try askSibling([("X-Auth-Assertion", forged)]).hasPrefix("401 identity assertion refused"))
        }
        usleep(300_000)  // the worker's log lines are written after each answer
        let made = try fetches() - before
        #expect(made <= 1, "\(made) key fetches for 30 made-up kids")
    }

    /// An assertion is for one audience: a sibling that expects another refuses it.
    @Test func anAssertionForAnotherAudienceIsRefused() throws {
        let browser = TestClient()
        try browser.logIn(stack, as: DemoUser.random)
        let other = try Stack.run(
            "/usr/bin/timeout",
            [
                "10", "/usr/bin/python3", "-c",
                """
                import sys, jwt
                keys = jwt.PyJWKClient(sys.argv[1])
                token = sys.argv[2]
                try:
                    jwt.decode(token, keys.get_signing_key_from_jwt(token).key, algorithms=["ES256"], audience=sys.argv[3])
                    print("accepted")
                except jwt.InvalidAudienceError:
                    print("refused: audience")
                """,
                stack.baseURL + "/.well-known/jwks.json", try assertion(for: browser), "https://other-sibling.example/",
            ])
        #expect(other.output.contains("refused: audience"), "\(other.output)")
    }

    @Test func aVisitorCannotChooseWhereLoginReturnsThem() throws {
        // nginx sets X-Original-URI itself; one sent by the visitor is not what the worker sees.
        let answer = try TestClient().get(
            stack.baseURL + "/mini/page", headers: [("X-Original-URI", "//evil.example/")])
        #expect(answer.header("location") == stack.baseURL + "/login?returnTo=%2Fmini%2Fpage")
    }

    @Test func meGivesProfileAndMetadataButNoTokens() throws {
        let browser = TestClient()
        let loggedOut = try browser.get(stack.baseURL + "/me")
        #expect(loggedOut.status == 401)
        #expect(JSONValue.parse(Array(loggedOut.body.utf8)) == .object(["error": "not_logged_in"]))
        try browser.logIn(stack, as: DemoUser.skippy)
        let me = try browser.get(stack.baseURL + "/me")
        #expect(me.status == 200)
        let json = try #require(JSONValue.parse(Array(me.body.utf8)))
        #expect(json["email"]?.string == "skippy@example.com")
        #expect(json["user_metadata"]?["personal_affirmation"]?.string == "Believe in yourself!")
        #expect(!me.body.contains("token"))
        #expect(!me.body.contains("eyJ"))
    }
}
