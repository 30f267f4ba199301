import Auth0Web
import Foundation
import MetadataDemoApp
import Testing
import Web

/// `MINI_APPS_FILE`: read whole at start-up, every problem said at once, one line each naming the
/// app and the key; no file, no mini apps.
@Suite struct MiniAppsFileTests {
    private func read(_ json: String, siblingAudience: String? = nil) throws(SettingsProblems) -> MiniApps {
        let path = FileManager.default.temporaryDirectory.path + "/mini-apps-\(UUID().uuidString).json"
        FileManager.default.createFile(atPath: path, contents: Data(json.utf8))
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try MiniApps(
            environment: ["MINI_APPS_FILE": path], baseURL: "https://demo.example.com", siblingAudience: siblingAudience
        )
    }

    private func problems(_ json: String, siblingAudience: String? = nil) -> [String] {
        do {
            _ = try read(json, siblingAudience: siblingAudience)
            return []
        } catch { return error.lines }
    }

    @Test func noFileNoMiniApps() throws {
        let none = try MiniApps(environment: [:], baseURL: "https://demo.example.com")
        #expect(none.apps.isEmpty && none.ruleFacts == .none)
        #expect(throws: SettingsProblems.self) {
            try MiniApps(environment: ["MINI_APPS_FILE": "/nonexistent/mini-apps.json"], baseURL: "https://d.example")
        }
    }

    /// Issue 53, item 4: the packaged guide (deploy/README.md) holds the file's format, every key
    /// the reader knows and every rule, and the README points there instead of keeping a second text.
    @Test func everyKeyTheReaderKnowsIsInThePackagedGuideWrittenOnce() throws {
        let said = problems(#"{"x": 1, "apps": [{"name": "a", "y": 2}]}"#).joined(separator: "\n")
        func listed(after opening: String) throws -> [String] {
            let start = try #require(said.range(of: opening)).upperBound
            let end = try #require(said[start...].firstIndex(of: ")"))
            return said[start..<end].replacingOccurrences(of: " and ", with: ", ").components(separatedBy: ", ")
        }
        let keys =
            try listed(after: "(the file has ") + listed(after: "(an app has ")
            + EntryRule.Kind.allCases.map(\.rawValue) + ["audience", "scope", "max_age", "acr_values"]
        #expect(keys.count > 15 && keys.contains("roles_claim") && keys.contains("email_domains"), "\(keys)")
        let root = MetadataDemoTests.repositoryRoot
        let guide = try String(contentsOfFile: root + "/deploy/README.md", encoding: .utf8)
        let start = try #require(guide.range(of: "### The mini-apps file\n")).upperBound
        let section = guide[start...].components(separatedBy: "\n## ")[0]
        for key in keys { #expect(section.contains("`\(key)`") || section.contains("\"\(key)\""), "\(key)") }
        let readme = try String(contentsOfFile: root + "/README.md", encoding: .utf8)
        #expect(readme.contains("`deploy/README.md`, \"The mini-apps file\""))
        for key in ["name", "path", "assertion_audience", "allow", "roles_claim"] {
            #expect(!readme.contains("\n- `\(key)`:"), "README.md describes \(key) a second time")
        }
    }

    @Test func theShippedExampleReads() throws {
        let path = MetadataDemoTests.repositoryRoot + "/deploy/mini-apps/mini-apps.json"
        let apps = try MiniApps(environment: ["MINI_APPS_FILE": path], baseURL: "http://127.0.0.1:8080")
        #expect(apps.apps.map(\.name) == ["announcements", "account"])
        #expect(apps.app(named: "announcements")?.rules == [.appMetadataFlag("display_announcement")])
        #expect(
            apps.app(named: "account")?.api
                == MiniAppAPI(audience: "https://account.metadata-demo.example/", scopes: ["read:account"]))
        #expect(apps.app(named: "account")?.rules == [.emailVerified, .permissions(["read:account"])])
        #expect(apps.app(named: "account")?.assertionAudience == "http://127.0.0.1:8080/account/")
        #expect(apps.ruleFacts.appMetadataFlags == ["display_announcement"])
    }

    @Test func anAppReadsWithItsRulesInOrder() throws {
        let apps = try read(
            #"""
            {"roles_claim": "https://demo.example.com/roles",
             "apps": [{"name": "reports", "title": {"en": "Reports", "zh": "报告"}, "path": "/reports/",
                       "assertion_audience": "https://reports.example.com/",
                       "allow": {"roles": ["analyst", "admin"], "email_domains": ["Example.COM"],
                                 "app_metadata_flag": "beta", "email_verified": true}}]}
            """#)
        let app = try #require(apps.app(named: "reports"))
        #expect(app.titles == [.en: "Reports", .zh: "报告"] && app.path == "/reports/")
        #expect(app.assertionAudience == "https://reports.example.com/")
        #expect(
            app.rules == [
                .emailVerified, .emailDomains(["example.com"]), .appMetadataFlag("beta"),
                .anyRole(["analyst", "admin"]),
            ])
        #expect(apps.ruleFacts == RuleFacts(appMetadataFlags: ["beta"], rolesClaim: "https://demo.example.com/roles"))
    }

    @Test func everyProblemIsSaidAtOnceNamingTheAppAndTheKey() {
        let lines = problems(
            #"""
            {"colour": "blue",
             "apps": [{"name": "ok", "title": {"en": "OK"}, "path": "/ok/", "allow": {"roles": ["x"], "age": 3}},
                      {"name": "Bad Name", "title": {"en": "B", "zh": "B"}, "path": "/login/"},
                      {"name": "two", "title": {"en": "T", "zh": "T"}, "path": "/ok/inner/",
                       "allow": {"email_verified": false, "email_domains": ["not a domain"], "app_metadata_flag": "a.b"}},
                      {"name": "ok", "title": {"en": "T", "zh": "T"}, "path": "no-slash", "api": {}, "colour": 1}]}
            """#)
        #expect(
            lines == [
                "MINI_APPS_FILE: colour: unknown key (the file has apps and roles_claim)",
                "MINI_APPS_FILE: app \"ok\": title.zh: missing; the app's name as people read it, in each language",
                "MINI_APPS_FILE: app \"ok\": allow.age: unknown rule (the rules are email_verified, email_domains, "
                    + "app_metadata_flag, roles, permissions)",
                "MINI_APPS_FILE: app \"ok\": allow.roles: needs roles_claim at the top of the file: the ID token's claim "
                    + "that lists roles",
                "MINI_APPS_FILE: apps[1]: name: must be 1 to 32 of a-z, 0-9 and -, starting with a letter or digit",
                "MINI_APPS_FILE: apps[1]: path: /login/ is the product's own (/login/…)",
                "MINI_APPS_FILE: app \"two\": path: /ok/inner/ overlaps app \"ok\"'s /ok/",
                "MINI_APPS_FILE: app \"two\": allow.email_verified: must be true (leave it out to let unverified "
                    + "addresses in)",
                "MINI_APPS_FILE: app \"two\": allow.email_domains: must be a list of domain names, such as "
                    + "[\"example.com\"]",
                "MINI_APPS_FILE: app \"two\": allow.app_metadata_flag: must be the name of a key of app_metadata "
                    + "(no \".\")",
                "MINI_APPS_FILE: app \"ok\": name: another app has this name",
                "MINI_APPS_FILE: app \"ok\": colour: unknown key (an app has allow, api, assertion_audience, authentication, "
                    + "name, path, title)",
                "MINI_APPS_FILE: app \"ok\": path: must start and end with /, such as /announcements/",
                "MINI_APPS_FILE: app \"ok\": api: must be {\"audience\": the API's identifier, \"scope\": the scopes it "
                    + "needs, space-separated}",
            ])
    }

    /// Another provider than Auth0 has no Multi-Resource Refresh Token: an API other than the
    /// login's own is refused at start-up; a permissions rule needs an API.
    @Test func anAPIAProviderCannotServeAndPermissionsWithoutAnAPIAreRefused() throws {
        let path = FileManager.default.temporaryDirectory.path + "/mini-apps-\(UUID().uuidString).json"
        FileManager.default.createFile(
            atPath: path,
            contents: Data(
                #"""
                {"apps": [{"name": "a", "title": {"en": "A", "zh": "A"}, "path": "/a/",
                           "api": {"audience": "https://api.example/", "scope": "read:a"}},
                          {"name": "b", "title": {"en": "B", "zh": "B"}, "path": "/b/",
                           "api": {"audience": "https://login.example/", "scope": "read:b"}},
                          {"name": "c", "title": {"en": "C", "zh": "C"}, "path": "/c/", "allow": {"permissions": ["x"]}}]}
                """#.utf8))
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            _ = try MiniApps(
                environment: ["MINI_APPS_FILE": path], baseURL: "https://d.example", dialect: .generic,
                loginAudience: "https://login.example/")
            Issue.record("read without problems")
        } catch {
            #expect(
                error.lines == [
                    "MINI_APPS_FILE: app \"a\": api.audience: https://api.example/ is not the login's own audience "
                        + "(AUTH0_AUDIENCE); only Auth0 gives tokens for another API (Multi-Resource Refresh Token), and "
                        + "token exchange (RFC 8693) is not supported yet",
                    "MINI_APPS_FILE: app \"c\": allow.permissions: needs api: the permissions are those of the app's "
                        + "access token for its API",
                ])
        }
    }

    @Test func overlappingPathsAndRepeatedNamesAreRefused() {
        let lines = problems(
            #"""
            {"apps": [{"name": "a", "title": {"en": "A", "zh": "A"}, "path": "/shop/"},
                      {"name": "b", "title": {"en": "B", "zh": "B"}, "path": "/shop/admin/"},
                      {"name": "a", "title": {"en": "A", "zh": "A"}, "path": "/other/"}]}
            """#)
        #expect(
            lines == [
                "MINI_APPS_FILE: app \"b\": path: /shop/admin/ overlaps app \"a\"'s /shop/",
                "MINI_APPS_FILE: app \"a\": name: another app has this name",
            ])
    }

    /// The fifth review: two apps could share one assertion audience (or take the sibling app's),
    /// so an assertion for the less guarded one opened the other.
    @Test func anAssertionAudienceNamesOneAppAlone() {
        let lines = problems(
            #"""
            {"apps": [{"name": "open", "title": {"en": "O", "zh": "O"}, "path": "/open/",
                       "assertion_audience": "https://apps.example/shared"},
                      {"name": "guarded", "title": {"en": "G", "zh": "G"}, "path": "/guarded/",
                       "assertion_audience": "https://apps.example/shared", "allow": {"app_metadata_flag": "staff"}},
                      {"name": "mini", "title": {"en": "M", "zh": "M"}, "path": "/elsewhere/",
                       "assertion_audience": "https://demo.example.com/mini/"}]}
            """#, siblingAudience: "https://demo.example.com/mini/")
        #expect(
            lines == [
                "MINI_APPS_FILE: app \"guarded\": assertion_audience: https://apps.example/shared is app \"open\"'s too: "
                    + "an assertion for one would open the other; give each its own",
                "MINI_APPS_FILE: app \"mini\": assertion_audience: https://demo.example.com/mini/ is "
                    + "IDENTITY_ASSERTION_AUDIENCE (the sibling app)'s too: an assertion for one would open the other; "
                    + "give each its own",
            ])
    }

    @Test(arguments: ["not json", "[]", #"{"apps": []}"#])
    func aFileThatIsNotAListOfAppsIsOneProblem(text: String) {
        let lines = problems(text)
        #expect(lines.count == 1 && lines[0].hasPrefix("MINI_APPS_FILE: "))
    }
}
