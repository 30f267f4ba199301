import Foundation
import Testing
import Web

/// The one reader every group of settings reads through: what it returns, what it records for
/// `metadata-demo settings`, and how it names a problem.
@Suite struct SettingsReaderTests {
    private static let plain = Setting("PLAIN_SETTING", "a plain one")
    private static let secret = Setting("SECRET_SETTING", "a secret one", secret: true, credential: "secret-setting")
    private static let renamed = Setting("NEW_NAME", "a renamed one", secret: true, formerName: "OLD_NAME")

    private func file(_ text: String, mode: Int = 0o600, in folder: String = NSTemporaryDirectory()) throws -> String {
        let path = folder + "/setting-\(UUID().uuidString)"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        return path
    }

    @Test func aValueIsTrimmedAndAnEmptyOneIsUnsetShowingItsDefault() {
        var reader = SettingsReader(environment: ["PLAIN_SETTING": "  value \t"])
        #expect(reader.text(Self.plain) == "value")
        var empty = SettingsReader(environment: ["PLAIN_SETTING": "   "])
        #expect(empty.text(Self.plain, defaultShown: "42") == nil)
        #expect(reader.reads.map(\.shown) == ["value"] && reader.reads.first?.source == .environment)
        #expect(empty.reads.map(\.shown) == ["42"] && empty.reads.first?.source == .unset)
    }

    @Test func aSecretComesFromItsVariableItsFileOrItsCredentialAndIsNeverShown() throws {
        var direct = SettingsReader(environment: ["SECRET_SETTING": "s3cret"])
        #expect(direct.secret(Self.secret) == "s3cret")
        let path = try file("from file\n")
        var fromFile = SettingsReader(environment: ["SECRET_SETTING_FILE": path])
        #expect(fromFile.secret(Self.secret) == "from file")
        let folder = NSTemporaryDirectory() + "credentials-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try "from systemd".write(toFile: folder + "/secret-setting", atomically: true, encoding: .utf8)
        var fromCredential = SettingsReader(environment: ["CREDENTIALS_DIRECTORY": folder])
        #expect(fromCredential.secret(Self.secret) == "from systemd")
        var optionalMissing = SettingsReader(environment: ["CREDENTIALS_DIRECTORY": NSTemporaryDirectory()])
        #expect(optionalMissing.secret(Self.secret, optional: true) == nil && optionalMissing.problems.isEmpty)
        let reads = [direct, fromFile, fromCredential].map { $0.reads[0] }
        #expect(reads.map(\.source) == [.environment, .file(path), .credential("secret-setting")])
        #expect(reads.allSatisfy { $0.shown == "(set)" }, "a secret's value is never what the list shows")
        #expect(optionalMissing.reads[0].shown == "(not set)")
    }

    @Test func aSecretFileOthersCanReadIsAProblemWithTheCommandThatMendsIt() throws {
        let path = try file("x", mode: 0o644)
        var reader = SettingsReader(environment: ["SECRET_SETTING_FILE": path])
        _ = reader.secret(Self.secret)
        #expect(
            reader.problems == [
                "SECRET_SETTING_FILE: \(path) can be read or changed by other users (mode 644); run `chmod 600 \(path)`"
            ])
    }

    /// Issue 51, item 7: a renamed setting is still read under its former name, with a note, and
    /// a problem with it names what the settings say.
    @Test func aFormerNameIsStillReadWithANoteAndProblemsNameIt() throws {
        var reader = SettingsReader(environment: ["OLD_NAME": "kept"])
        #expect(reader.secret(Self.renamed) == "kept")
        reader.problem(Self.renamed, "wrong")
        #expect(reader.problems == ["OLD_NAME: wrong"])
        #expect(reader.notes == ["OLD_NAME: read as NEW_NAME; rename it (the old name will stop being read)"])
        #expect(reader.reads[0].source == .formerName("OLD_NAME"))
        var both = SettingsReader(environment: ["OLD_NAME": "old", "NEW_NAME": "new"])
        #expect(both.secret(Self.renamed) == "new" && both.notes.isEmpty, "the new name wins")
        let path = try file("in a file")
        var oldFile = SettingsReader(environment: ["OLD_NAME_FILE": path])
        #expect(oldFile.secret(Self.renamed) == "in a file")
        oldFile.problem(Self.renamed, "wrong")
        #expect(oldFile.problems == ["OLD_NAME: wrong"])
    }

    @Test func aWholeNumberOutsideItsRangeNamesTheSettingAndTheRange() {
        let number = Self.plain.wholeNumber(in: 1...10, default: 5)
        var reader = SettingsReader(environment: ["PLAIN_SETTING": "0"])
        _ = reader.value(number)
        #expect(reader.problems == ["PLAIN_SETTING: \"0\" is not a whole number from 1 to 10"])
        var unset = SettingsReader(environment: [:])
        #expect(unset.value(number) == 5 && unset.reads[0].shown == "5" && unset.problems.isEmpty)
        var set = SettingsReader(environment: ["PLAIN_SETTING": "7"])
        #expect(set.value(number) == 7 && set.reads[0].shown == "7")
    }

    /// Issue 61, item 2: each kind declares its default once and refuses in its one wording.
    @Test func eachKindShowsItsDefaultAndRefusesInItsOneWording() {
        func read<Value>(_ typed: TypedSetting<Value>, _ text: String?) -> (Value, shown: String, problems: [String]) {
            var reader = SettingsReader(environment: text.map { ["PLAIN_SETTING": $0] } ?? [:])
            let value = reader.value(typed)
            return (value, reader.reads[0].shown, reader.problems)
        }
        let seconds = Self.plain.seconds(in: 60...600, default: 90)
        #expect(read(seconds, nil) == (90, "90", []))
        #expect(
            read(seconds, "59").problems == ["PLAIN_SETTING: \"59\" is not a whole number of seconds from 60 to 600"])
        let fraction = Self.plain.fractionalSeconds(in: 0.1...120, default: 10)
        #expect(read(fraction, nil) == (10, "10", []) && read(fraction, "2.5").0 == 2.5)
        #expect(read(fraction, "0").problems == ["PLAIN_SETTING: must be a number of seconds from 0.1 to 120"])
        let flag = Self.plain.onOff(default: true)
        #expect(read(flag, nil) == (true, "on", []) && read(flag, "off").0 == false)
        #expect(read(flag, "yes").problems == ["PLAIN_SETTING: must be on or off"])
        let workedOut = Self.plain.onOff(unsetMeans: "as the provider says")
        #expect(read(workedOut, nil) == (nil, "as the provider says", []) && read(workedOut, "on").0 == true)
        #expect(read(workedOut, "maybe") == (nil, "maybe", ["PLAIN_SETTING: must be on or off"]))
        let count = Self.plain.wholeNumber(in: 1...64, unsetMeans: "one per core")
        #expect(read(count, nil) == (nil, "one per core", []) && read(count, "8").0 == 8)
        #expect(read(count, "65").problems == ["PLAIN_SETTING: \"65\" is not a whole number from 1 to 64"])
        #expect(read(Self.plain.text(default: "sqlite"), nil) == ("sqlite", "sqlite", []))
    }

    /// Issue 53, item 6: the shipped settings file's example value is nobody's: a problem.
    @Test func theShippedExampleIsAProblemNamingIt() {
        let example = Setting("DOMAIN_SETTING", "a host", shippedExample: "your-tenant.example")
        var reader = SettingsReader(environment: ["DOMAIN_SETTING": "your-tenant.example"])
        #expect(reader.text(example) == "your-tenant.example")
        #expect(
            reader.problems == [
                "DOMAIN_SETTING: still the shipped settings file's example (your-tenant.example): set it to your own"
            ])
        var own = SettingsReader(environment: ["DOMAIN_SETTING": "mine.example"])
        _ = own.text(example)
        #expect(own.problems.isEmpty)
    }
}
