#if canImport(Glibc)
    import Glibc
#endif

/// Bytes being written (a page being rendered, a log line): grown by doubling, appended with
/// one copy each. A page is some fifty appends of a few bytes to a few hundred;
/// `Array.append(contentsOf:)` costs about a hundred instructions per call in checks around its
/// copy, a tenth of a page.
struct GrowingBytes: ~Copyable {
    private var start: UnsafeMutablePointer<UInt8>
    private var count = 0
    private var capacity: Int

    init(capacity: Int) {
        self.capacity = max(capacity, 64)
        start = .allocate(capacity: self.capacity)
    }

    deinit { start.deallocate() }

    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        if count + bytes.count > capacity { grow(toHold: count + bytes.count) }
        (start + count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    mutating func append(_ text: String) { text.withUTF8Bytes { append($0) } }

    mutating func append(_ byte: UInt8) {
        if count == capacity { grow(toHold: count + 1) }
        start[count] = byte
        count += 1
    }

    /// The bytes written so far, in place.
    func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try body(UnsafeBufferPointer(start: start, count: count))
    }

    /// The bytes as an array (one copy).
    consuming func array() -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: count) { out, initialized in
            if count > 0 { out.baseAddress!.update(from: start, count: count) }
            initialized = count
        }
    }

    private mutating func grow(toHold needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        bigger.update(from: start, count: count)
        start.deallocate()
        start = bigger
        capacity = newCapacity
    }
}
