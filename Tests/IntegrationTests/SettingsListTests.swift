import Foundation
import Testing

/// Issue 51, item 2: `metadata-demo settings` lists exactly the settings the worker reads, and
/// the operators' documents name exactly those: a name read but not documented, or documented
/// (or in the shipped settings file) but not read, fails here.
@Suite struct SettingsListTests {
    /// The names `metadata-demo settings` lists for `environment`, and its whole output.
    private func listed(_ environment: [String: String] = [:]) throws -> (names: [String], output: String) {
        let result = try Stack.run(Stack.binDir + "/metadata-demo", ["settings"], environment: environment, clean: true)
        let names = result.output.split(separator: "\n").compactMap { line -> String? in
            guard let end = line.range(of: " = ") else { return nil }
            return String(line[..<end.lowerBound])
        }
        return (names, result.output)
    }

    /// The setting names in the first column of a document's settings table (`| name | meaning`).
    private func documented(_ path: String) throws -> Set<String> {
        let text = try String(contentsOfFile: Stack.repoRoot + "/" + path, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let header = lines.firstIndex(where: { $0.hasPrefix("| name | meaning") }) else { return [] }
        var names: Set<String> = []
        for line in lines[(header + 2)...] {
            guard line.hasPrefix("|") else { break }
            let cell = line.split(separator: "|", omittingEmptySubsequences: true).first ?? ""
            names.formUnion(Self.settingNames(in: String(cell)))
        }
        return names
    }

    /// Every `NAME` in backticks, a `NAME_FILE` read as its setting; systemd's own variable left out.
    private static func settingNames(in text: String) -> [String] {
        text.split(separator: "`").enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
            .filter { $0.count > 2 && $0.allSatisfy { $0.isUppercase || $0.isNumber || $0 == "_" } && $0.first != "_" }
            .filter { $0 != "CREDENTIALS_DIRECTORY" }
    }

    @Test func theListNamesEverySettingOnceAndTheDocumentsNameExactlyThose() throws {
        let (names, output) = try listed()
        #expect(names.count == Set(names).count, "each setting once:\n\(output)")
        #expect(names.count >= 40, "\(output)")
        let read = Set(names)
        // A name the list says a setting had before is still read; `X_FILE` is setting X's file.
        let former = Set(
            output.split(separator: "\n").compactMap { line in
                line.range(of: "(formerly ").map { String(line[$0.upperBound...].prefix { $0 != ")" }) }
            })
        func asRead(_ name: String) -> String {
            name.hasSuffix("_FILE") && read.contains(String(name.dropLast(5))) ? String(name.dropLast(5)) : name
        }
        #expect(former.contains("ASSERTION_KEY"), "\(output)")
        for document in ["README.md", "deploy/README.md"] {
            let written = Set(try documented(document).map(asRead)).subtracting(former)
            #expect(read.subtracting(written).sorted() == [], "read but not in \(document)'s settings table")
            #expect(written.subtracting(read).sorted() == [], "in \(document)'s settings table but not read")
        }
        let example = try String(contentsOfFile: Stack.repoRoot + "/deploy/metadata-demo.env.example", encoding: .utf8)
        let exampleNames = example.split(separator: "\n").compactMap { line -> String? in
            let text = line.hasPrefix("# ") ? line.dropFirst(2) : line[...]
            guard let equals = text.firstIndex(of: "="), text[..<equals].allSatisfy({ $0.isUppercase || $0 == "_" })
            else { return nil }
            return String(text[..<equals])
        }.map(asRead)
        #expect(!exampleNames.isEmpty)
        #expect(Set(exampleNames).subtracting(read).sorted() == [], "the shipped settings file names what is not read")
    }

    /// Issue 61, item 2: README's default column says each default the worker runs with. Every
    /// setting `metadata-demo settings` shows at its default has its row, and the row's default
    /// cell holds that value; a default worked out from other settings is said in words there.
    @Test func theReadmesDefaultColumnSaysEachDefaultInEffect() throws {
        let (_, output) = try listed([
            "AUTH0_DOMAIN": "tenant.example.com", "APP_BASE_URL": "https://demo.example.com", "AUTH0_CLIENT_ID": "x",
            "AUTH0_CLIENT_SECRET": "y", "AUTH0_SECRET": String(repeating: "5f0c9e2a", count: 8),
        ])
        let text = try String(contentsOfFile: Stack.repoRoot + "/README.md", encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let header = try #require(lines.firstIndex { $0.hasPrefix("| name | meaning | default") })
        let rows = lines[(header + 2)...].prefix { $0.hasPrefix("|") }.map { line in
            line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().map {
                $0.trimmingCharacters(in: .whitespaces)
            }
        }
        // Defaults worked out from other settings, and the words README says them in.
        let workedOut = [
            "AUTH0_AUDIENCE": "its Management API", "IDENTITY_ASSERTION_AUDIENCE": "`APP_BASE_URL` + `/mini/`",
            "CLIENT_AUTH_METHOD": "with Auth0, `client_secret_post`",
        ]
        var checked = 0
        for line in output.split(separator: "\n") where line.contains("(default)") {
            guard let equals = line.range(of: " = ") else { continue }
            let name = String(line[..<equals.lowerBound])
            let value = line[equals.upperBound...].components(separatedBy: "  (default)")[0]
                .trimmingCharacters(in: .whitespaces)
            let row = rows.first { $0.first?.contains("`\(name)`") == true }
            let cell = try #require(row.flatMap { $0.count > 2 ? $0[2] : nil }, "README has no default for \(name)")
            #expect(cell.contains(workedOut[name] ?? value), "README's default for \(name) does not say \(value)")
            checked += 1
        }
        #expect(checked >= 30, "\(output)")
    }

    @Test func eachValueSaysWhereItCameFromAndASecretIsNeverShown() throws {
        let folder = NSTemporaryDirectory() + "settings-list-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let secretFile = folder + "/client-secret"
        try "file-held-client-secret".write(toFile: secretFile, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: secretFile)
        try "credential-held-cookie-secret".write(toFile: folder + "/cookie-secret", atomically: true, encoding: .utf8)
        let (_, output) = try listed([
            "AUTH0_DOMAIN": "tenant.example.com", "AUTH0_CLIENT_ID": "the-client",
            "APP_BASE_URL": "https://demo.example.com",
            "AUTH0_CLIENT_SECRET_FILE": secretFile, "CREDENTIALS_DIRECTORY": folder,
            "SESSION_STORE": "redis://:hunter2@10.0.0.5:6379/0", "ASSERTION_AUDIENCE": "https://demo.example.com/app/",
        ])
        let lines = output.split(separator: "\n").map(String.init)
        func line(_ name: String) -> String { lines.first { $0.hasPrefix(name + " = ") } ?? "" }
        #expect(line("AUTH0_DOMAIN").contains("tenant.example.com") && line("AUTH0_DOMAIN").contains("(environment)"))
        #expect(
            line("AUTH0_CLIENT_SECRET").contains("(set)")
                && line("AUTH0_CLIENT_SECRET").contains("(file \(secretFile))"))
        #expect(line("AUTH0_SECRET").contains("(systemd credential cookie-secret)"))
        #expect(
            line("AUTH0_AUDIENCE").contains("https://tenant.example.com/api/v2/")
                && line("AUTH0_AUDIENCE").contains("(default)"))
        #expect(line("IDENTITY_ASSERTION_AUDIENCE").contains("(environment, as ASSERTION_AUDIENCE)"))
        #expect(line("DPOP_KEY").contains("(not set)"))
        for secret in ["file-held-client-secret", "credential-held-cookie-secret", "hunter2"] {
            #expect(!output.contains(secret), "a secret's value is never printed")
        }
        #expect(output.contains("note: ASSERTION_AUDIENCE: read as IDENTITY_ASSERTION_AUDIENCE"))
    }

    /// Issue 53, item 6: `check-config` on the shipped settings file, as an operator meets it after
    /// installing (or after `metadata-demo-trial off`), lists every problem at once: the examples
    /// still in it and the secrets not given yet, each with the guide's step that fixes it.
    @Test func checkConfigOnTheShippedFileListsEveryProblemAtOnceWithItsStep() throws {
        let folder = NSTemporaryDirectory() + "shipped-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let result = try Stack.run(
            Stack.binDir + "/metadata-demo",
            ["check-config", "--env-file", Stack.repoRoot + "/deploy/metadata-demo.env.example"],
            environment: ["CREDENTIALS_DIRECTORY": folder], clean: true)
        #expect(result.status == 1)
        let lines = result.output.split(separator: "\n").filter { $0.hasPrefix("metadata-demo: ") }
        let step = "(the deployment guide's step 4, Configure)"
        for start in [
            "AUTH0_DOMAIN: still the shipped settings file's example (your-tenant.us.auth0.com)",
            "AUTH0_CLIENT_ID: still the shipped settings file's example (your-client-id)",
            "APP_BASE_URL: still the shipped settings file's example (https://your-site.example.com)",
            "AUTH0_CLIENT_SECRET: cannot read \(folder)/client-secret",
            "AUTH0_SECRET: cannot read \(folder)/cookie-secret",
        ] {
            #expect(
                lines.contains { $0.hasPrefix("metadata-demo: " + start) && $0.hasSuffix(step) },
                "\(start)\n\(result.output)")
        }
    }

    /// The fifth review's finding 4: `settings --env-file` and `check-config --env-file` printed
    /// parts of secrets after ordinary mistakes in the file (60 characters of a secret followed by
    /// a comment, 40 of each line of a PEM key pasted without quotes, a Redis URL's password
    /// whose scheme was not spelled `redis://`). Every setting the list marks as a secret, held
    /// to "never printed" through each mistake, by both commands.
    @Test func noMistakeInTheFilePrintsAnyPartOfASecret() throws {
        let (_, list) = try listed()
        let secrets = list.split(separator: "\n").filter { $0.contains("never shown") }
            .compactMap { line in line.range(of: " = ").map { String(line[..<$0.lowerBound]) } }
        for known in [
            "AUTH0_SECRET", "AUTH0_CLIENT_SECRET", "CLIENT_ASSERTION_KEY", "REQUEST_OBJECT_KEY", "DPOP_KEY",
            "IDENTITY_ASSERTION_KEY", "SESSION_STORE",
        ] {
            #expect(secrets.contains(known), "\(known) is not marked as a secret:\n\(list)")
        }
        let folder = NSTemporaryDirectory() + "secret-mistakes-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        func hidden() -> String {
            (0..<4).map { _ in UUID().uuidString.replacingOccurrences(of: "-", with: "") }.joined()
        }
        for name in secrets {
            let (pemA, pemB, password) = (hidden(), hidden().prefix(40) + "==", hidden())
            // A URL's password is its secret part; another setting's secret is all of it.
            let value = name == "SESSION_STORE" ? "redis://:\(password)@10.0.0.5:6379/0" : hidden()
            var mistakes = [
                "\(name)=\(value)   # the new one, \(value.suffix(8)) was the old",
                "\(name)=-----BEGIN PRIVATE KEY-----\n\(pemA)\n\(pemB)\n-----END PRIVATE KEY-----",
                "\(name)=\(value)\n\(name)=\(value)x",
            ]
            if name == "SESSION_STORE" {
                mistakes += [
                    "SESSION_STORE=Redis://:\(password)@10.0.0.5:6379/0",
                    "SESSION_STORE=redis+sentinel://:\(password)@10.0.0.5:26379/main/0",
                    "SESSION_STORE=rediss://worker:\(password)@10.0.0.5:6380/0   # TLS",
                    "SESSION_STORE=REDIS://:\(password)@[::1:6379/0",
                ]
            }
            for (index, mistake) in mistakes.enumerated() {
                let file = folder + "/settings.env"
                try (mistake + "\n").write(toFile: file, atomically: true, encoding: .utf8)
                for command in ["settings", "check-config"] {
                    let result = try Stack.run(
                        Stack.binDir + "/metadata-demo", [command, "--env-file", file],
                        environment: ["CREDENTIALS_DIRECTORY": folder], clean: true)
                    for secret in name == "SESSION_STORE"
                        ? [password, pemA, String(pemB)] : [value, pemA, String(pemB)]
                    {
                        for start in stride(from: 0, to: secret.count - 8, by: 4) {
                            let piece = String(secret.dropFirst(start).prefix(8))
                            #expect(
                                !result.output.contains(piece),
                                "\(command) printed part of \(name)'s secret after:\n\(mistake)\n\(result.output)")
                        }
                    }
                    if command == "check-config", index < 3 {
                        #expect(result.output.contains("settings.env: line "), "\(mistake)\n\(result.output)")
                    }
                }
            }
        }
    }

    /// Issue 59, item 8: `--help` (and `help`, `-h`) started the worker (five "missing" lines, exit
    /// 2). Now each prints the commands and exits 0, starting nothing, whatever the settings.
    @Test func helpPrintsTheCommandsAndStartsNothing() throws {
        for asked in ["--help", "help", "-h"] {
            let result = try Stack.run(Stack.binDir + "/metadata-demo", [asked], clean: true)
            #expect(result.status == 0, "\(asked): \(result.output)")
            #expect(result.output.hasPrefix("usage: metadata-demo"), "\(result.output)")
            for command in ["check-config", "settings", "publish-static", "new-client-key", "new-dpop-key"] {
                #expect(result.output.contains("  " + command), "\(asked) does not name \(command)")
            }
            #expect(!result.output.contains("missing"), "\(result.output)")
        }
    }

    /// Issue 59, item 5: values from `--env-file` were labelled "(environment)". Each is now
    /// labelled with the file's path, and one from the process's environment stays "environment".
    @Test func aValueFromTheSettingsFileIsLabelledWithItsPath() throws {
        let file = NSTemporaryDirectory() + "labelled-\(UUID().uuidString.prefix(8)).env"
        try "AUTH0_DOMAIN=tenant.example.com\nLOG_LEVEL=warning\n".write(
            toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let result = try Stack.run(
            Stack.binDir + "/metadata-demo", ["settings", "--env-file", file], environment: ["AUTH0_CLIENT_ID": "c"],
            clean: true)
        let lines = result.output.split(separator: "\n").map(String.init)
        func line(_ name: String) -> String { lines.first { $0.hasPrefix(name + " = ") } ?? "" }
        #expect(line("AUTH0_DOMAIN").contains("(\(file))"), "\(result.output)")
        #expect(line("LOG_LEVEL").contains("(\(file))"))
        #expect(line("AUTH0_CLIENT_ID").contains("(environment)"))
    }

    /// Issue 61, item 2: a misspelt name in the settings file was silently ignored, by systemd and
    /// the worker alike. `check-config --env-file` names its line, with the nearest known name.
    @Test func checkConfigNamesALineNoSettingReads() throws {
        let file = NSTemporaryDirectory() + "misspelt-\(UUID().uuidString.prefix(8)).env"
        let text = "AUTH0_DOMAIN=tenant.example.com\nAUTHO_CLIENT_ID=c\nLOG_LEVEL=info\nWHATEVER_THIS_IS=1\n"
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let result = try Stack.run(
            Stack.binDir + "/metadata-demo", ["check-config", "--env-file", file], clean: true)
        #expect(result.status == 1)
        #expect(
            result.output.contains(
                "\(file): line 2: AUTHO_CLIENT_ID is no setting the worker reads, so it does nothing "
                    + "(did you mean AUTH0_CLIENT_ID?)"), "\(result.output)")
        #expect(
            result.output.contains(
                "\(file): line 4: WHATEVER_THIS_IS is no setting the worker reads, so it does nothing\n"))
        #expect(
            !result.output.contains("AUTH0_DOMAIN is no setting") && !result.output.contains("LOG_LEVEL is no setting"))
    }
}
