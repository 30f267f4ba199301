#if canImport(Glibc)
    import Glibc
#endif

/// Bytes being written (a page being rendered, a log line, an answer's records): grown by
/// doubling, appended with one copy each. A page is some fifty appends of a few bytes to a few
/// hundred; `Array.append(contentsOf:)` costs about a hundred instructions per call in checks
/// around its copy, a tenth of a page.
package struct GrowingBytes: ~Copyable {
    private var start: UnsafeMutablePointer<UInt8>
    package private(set) var count = 0
    private var capacity: Int
    /// False while it writes into room it was lent (`init(room:)`); true once it has its own.
    package private(set) var ownsItsBytes = true

    package init(capacity: Int) {
        self.capacity = max(capacity, 64)
        start = Self.allocate(self.capacity)
    }

    /// Writes into `room` (an array's storage being made) until it needs more, then goes on in
    /// room of its own with what it wrote copied there: a page rendered where its array will
    /// hold it is neither allocated twice nor copied.
    package init(room: UnsafeMutableBufferPointer<UInt8>) {
        if let base = room.baseAddress, room.count > 0 {
            start = base
            capacity = room.count
            ownsItsBytes = false
        } else {
            capacity = 64
            start = Self.allocate(capacity)
        }
    }

    deinit { if ownsItsBytes { free(start) } }

    /// Room from `malloc`: `UnsafeMutablePointer.allocate` asks for it aligned (`posix_memalign`),
    /// which carves each block out of a larger one and left the heap in pieces that later
    /// allocations of the request searched (glibc's `_int_malloc`: 100 to 1,100 instructions a
    /// page from one run to the next).
    private static func allocate(_ count: Int) -> UnsafeMutablePointer<UInt8> {
        guard let room = malloc(count) else { fatalError("out of memory (\(count) bytes)") }
        return room.assumingMemoryBound(to: UInt8.self)
    }

    package mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        if count + bytes.count > capacity { grow(toHold: count + bytes.count) }
        Self.copy(from: source, count: bytes.count, to: start + count)
        count += bytes.count
    }

    /// Copies `length` bytes: up to sixteen (a log field's key, a header's name, most of a
    /// template's pieces) in two pairs of overlapping words, the rest by memcpy, whose call costs
    /// more than the copy for so few.
    @inline(__always)
    static func copy(
        from source: UnsafePointer<UInt8>, count length: Int, to target: UnsafeMutablePointer<UInt8>
    ) {
        let from = UnsafeRawPointer(source)
        let to = UnsafeMutableRawPointer(target)
        switch length {
        case 8...16:
            let first = from.loadUnaligned(as: UInt64.self)
            let last = from.loadUnaligned(fromByteOffset: length - 8, as: UInt64.self)
            to.storeBytes(of: first, as: UInt64.self)
            to.storeBytes(of: last, toByteOffset: length - 8, as: UInt64.self)
        case 4..<8:
            let first = from.loadUnaligned(as: UInt32.self)
            let last = from.loadUnaligned(fromByteOffset: length - 4, as: UInt32.self)
            to.storeBytes(of: first, as: UInt32.self)
            to.storeBytes(of: last, toByteOffset: length - 4, as: UInt32.self)
        case 1..<4:
            target[0] = source[0]
            target[length / 2] = source[length / 2]
            target[length - 1] = source[length - 1]
        default:
            target.update(from: source, count: length)
        }
    }

    package mutating func append(_ bytes: UnsafeRawBufferPointer) { append(bytes.assumingMemoryBound(to: UInt8.self)) }

    package mutating func append(_ bytes: [UInt8]) { bytes.withUnsafeBufferPointer { append($0) } }

    package mutating func append(_ text: String) { text.withUTF8Bytes { append($0) } }

    /// Text known when the program was built: its bytes are read where they lie.
    package mutating func append(_ text: StaticString) {
        append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    package mutating func append(_ byte: UInt8) {
        if count == capacity { grow(toHold: count + 1) }
        start[count] = byte
        count += 1
    }

    /// Appends `value` in decimal digits (a minus sign first when negative), with no string made:
    /// the digits counted first, then written where they go, last first.
    package mutating func appendDecimal(_ value: Int) {
        if value < 0 { append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits = 1
        var rest = magnitude / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        if count + digits > capacity { grow(toHold: count + digits) }
        var index = count + digits
        repeat {
            index -= 1
            start[index] = UInt8(ascii: "0") + UInt8(magnitude % 10)
            magnitude /= 10
        } while magnitude > 0
        count += digits
    }

    /// Appends `before`, `text` and `after` with one check of room (a log field's ` key=`).
    package mutating func append(_ before: UInt8, _ text: StaticString, _ after: UInt8) {
        let length = text.utf8CodeUnitCount
        if count + length + 2 > capacity { grow(toHold: count + length + 2) }
        start[count] = before
        Self.copy(from: text.utf8Start, count: length, to: start + count + 1)
        start[count + 1 + length] = after
        count += length + 2
    }

    /// A byte already written (to fill in a length once what it counts is written).
    package subscript(index: Int) -> UInt8 {
        get {
            precondition(index >= 0 && index < count, "index out of range")
            return start[index]
        }
        set {
            precondition(index >= 0 && index < count, "index out of range")
            start[index] = newValue
        }
    }

    /// Forgets what was written, keeping the room (a buffer reused from one answer to the next).
    package mutating func removeAll() { count = 0 }

    /// Forgets the first `length` bytes written, moving the rest to the front.
    package mutating func removeFirst(_ length: Int) {
        precondition(length >= 0 && length <= count, "length out of range")
        guard length > 0 else { return }
        memmove(start, start + length, count - length)  // the regions overlap
        count -= length
    }

    /// Forgets what was written past the first `length` bytes.
    package mutating func truncate(to length: Int) {
        precondition(length >= 0 && length <= count, "length out of range")
        count = length
    }

    /// The bytes written so far, in place.
    package func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try body(UnsafeBufferPointer(start: start, count: count))
    }

    /// The bytes as an array (one copy). Made from a buffer, not filled in place: the standard
    /// library's in-place path looks the array's type up in the runtime on every call.
    package consuming func array() -> [UInt8] { Array(UnsafeBufferPointer(start: start, count: count)) }

    private mutating func grow(toHold needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        if ownsItsBytes {
            guard let bigger = realloc(start, newCapacity) else { fatalError("out of memory (\(newCapacity) bytes)") }
            start = bigger.assumingMemoryBound(to: UInt8.self)
        } else {
            let own = Self.allocate(newCapacity)
            own.update(from: start, count: count)
            start = own
            ownsItsBytes = true
        }
        capacity = newCapacity
    }
}
