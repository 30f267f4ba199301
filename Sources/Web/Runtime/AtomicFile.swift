import Foundation

/// Writes a file so that a crash leaves either the old or the new contents, never a mix or an
/// empty file: written beside it, flushed to disk, then renamed over it. The dev tenant's state
/// and keys, and the set-up command's settings file and the client secret it is given once.
public enum AtomicFile {
    /// Writes `bytes` to `path` with permission bits `mode` (whatever the umask), making its folder.
    public static func write(_ bytes: [UInt8], to path: String, mode: mode_t = 0o600) throws {
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        let temporary = path + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL, mode)
        guard fd >= 0 else { throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: temporary]) }
        let file = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        do {
            guard fchmod(fd, mode) == 0 else { throw CocoaError(.fileWriteNoPermission) }
            try file.write(contentsOf: bytes)
            try file.synchronize()  // on disk before the rename makes it the file
            try file.close()
        } catch {
            unlink(temporary)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
        guard rename(temporary, path) == 0 else {
            unlink(temporary)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
    }
}
