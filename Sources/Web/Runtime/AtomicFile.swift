import FoundationEssentials
import Glibc

/// Writes a file so that a crash leaves either the old or the new contents, never a mix or an
/// empty file: written beside it, flushed to disk, then renamed over it. The dev tenant's state
/// and keys, and the set-up command's settings file and the client secret it is given once.
public enum AtomicFile {
    /// Writes `bytes` to `path` with permission bits `mode` (whatever the umask), making its folder.
    public static func write(_ bytes: [UInt8], to path: String, mode: mode_t = 0o600) throws {
        let directory = FilePath.folder(of: path)
        if !directory.isEmpty {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        let temporary = path + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL, mode)
        guard fd >= 0 else { throw CocoaError(.fileWriteNoPermission, userInfo: [filePathKey: temporary]) }
        // On disk (fsync) before the rename makes it the file.
        let written = fchmod(fd, mode) == 0 && WholeWrite.write(bytes, to: fd) && fsync(fd) == 0
        guard close(fd) == 0, written, rename(temporary, path) == 0 else {
            unlink(temporary)
            throw CocoaError(.fileWriteUnknown, userInfo: [filePathKey: path])
        }
    }

    /// The key Foundation names the file of a file error with (`NSFilePathErrorKey`).
    private static let filePathKey = "NSFilePath"
}
