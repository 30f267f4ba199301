import Glibc

/// `write(2)` until every byte is written: again after a signal or a short write.
public enum WholeWrite {
    /// Writes `bytes` whole to `descriptor`; false when it refuses them (closed, full, an error).
    @discardableResult
    public static func write(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
        bytes.withUnsafeBytes { write($0, to: descriptor) }
    }

    @discardableResult
    static func write(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Bool {
        var left = bytes
        while !left.isEmpty {
            let written = Glibc.write(descriptor, left.baseAddress, left.count)
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return false }
            left = UnsafeRawBufferPointer(rebasing: left[written...])
        }
        return true
    }
}
