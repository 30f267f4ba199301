import Foundation
import Testing
import Web

/// The one way a file the product writes for itself is replaced: whole, with the mode asked for.
@Suite struct AtomicFileTests {
    private func folder() throws -> String {
        let path = NSTemporaryDirectory() + "atomic-file-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func aFileIsReplacedWholeWithTheModeAskedForWhateverTheUmask() throws {
        let directory = try folder()
        let path = directory + "/nested/client-secret"
        let before = umask(0o022)
        defer { umask(before) }
        try AtomicFile.write(Array("first\n".utf8), to: path, mode: 0o640)
        try AtomicFile.write(Array("second\n".utf8), to: path, mode: 0o600)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "second\n")
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        _ = umask(0o077)
        try AtomicFile.write(Array("third\n".utf8), to: path, mode: 0o640)
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o640)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory + "/nested") == ["client-secret"])
    }

    @Test func aWriteThatCannotBeRenamedIntoPlaceLeavesNothingBehind() throws {
        let directory = try folder()
        let path = directory + "/taken"
        try FileManager.default.createDirectory(atPath: path + "/inside", withIntermediateDirectories: true)
        #expect(throws: (any Error).self) { try AtomicFile.write(Array("A=2\n".utf8), to: path) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["taken"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: path) == ["inside"])
    }
}
