/// Header fields as the web server passed them (`HTTP_ACCEPT_LANGUAGE`, `HTTP_COOKIE`), end to
/// end in one buffer, made into text only when read. A browser sends a dozen or more and a page
/// reads a few: each made into a string on arrival cost an allocation, a copy and a release.
/// A field is its name's length and its value's (four bytes each), then the name as the server
/// wrote it (after `HTTP_`: upper case, `_` for `-`), then the value.
package struct ReceivedHeaderBytes: Sendable {
    private var bytes: [UInt8] = []

    /// No fields.
    package init() {}

    /// The fields `fill` writes, in room for `capacity` bytes: one allocation, none per field.
    package init(capacity: Int, _ fill: (inout Writer) -> Void) {
        guard capacity > 0 else { return }
        bytes = [UInt8](unsafeUninitializedCapacity: capacity) { room, count in
            var writer = Writer(room: UnsafeMutableRawBufferPointer(room))
            fill(&writer)
            count = writer.used
        }
    }

    /// The room a request's fields can need, from its parameters' length: a field takes at most
    /// one byte more than its parameter did (eight bytes of lengths against at least two, less the
    /// five of `HTTP_`), and a parameter that is a header takes at least eight.
    package static func capacity(forParameterBytes count: Int) -> Int { count + count / 8 + 1 }

    /// Writes fields end to end into the room it was given.
    package struct Writer: ~Copyable {
        fileprivate let room: UnsafeMutableRawBufferPointer
        fileprivate var used = 0

        /// Adds a field: `name` as the server wrote it after `HTTP_`. A field past the room
        /// `capacity(forParameterBytes:)` gave cannot come; it would be left out.
        package mutating func append(name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) {
            let size = 8 + name.count + value.count
            guard room.count - used >= size, let base = room.baseAddress else { return }
            base.storeBytes(of: UInt32(truncatingIfNeeded: name.count), toByteOffset: used, as: UInt32.self)
            base.storeBytes(of: UInt32(truncatingIfNeeded: value.count), toByteOffset: used + 4, as: UInt32.self)
            let target = (base + used + 8).assumingMemoryBound(to: UInt8.self)
            // Names and most values are a few bytes: copied in words, not by a call to memcpy.
            if let source = name.baseAddress {
                GrowingBytes.copy(from: source.assumingMemoryBound(to: UInt8.self), count: name.count, to: target)
            }
            if let source = value.baseAddress {
                GrowingBytes.copy(
                    from: source.assumingMemoryBound(to: UInt8.self), count: value.count, to: target + name.count)
            }
            used += size
        }
    }

    /// The value of the last field named `name` (lower case, `-` between words, as HTTP writes
    /// it), made into text; nil when no field has that name.
    package func value(named name: String) -> String? {
        guard let field = lastField(named: name) else { return nil }
        if field.valueCount == 0 { return "" }
        return bytes.withUnsafeBytes { all in
            String(
                decoding: UnsafeRawBufferPointer(
                    rebasing: all[field.valueStart..<(field.valueStart + field.valueCount)]),
                as: UTF8.self)
        }
    }

    /// Forgets every field named `name`: its name's first byte becomes one no name has.
    package mutating func remove(named name: String) {
        while let field = lastField(named: name) { bytes[field.nameStart] = 0 }
    }

    /// Where the last field named `name` is in `bytes`. Lengths first: the name's bytes are
    /// looked at only where a field's name is as long.
    private func lastField(named name: String) -> (nameStart: Int, valueStart: Int, valueCount: Int)? {
        let wantedCount = name.utf8.count
        guard wantedCount > 0 else { return nil }
        return bytes.withUnsafeBytes { all -> (nameStart: Int, valueStart: Int, valueCount: Int)? in
            guard let base = all.baseAddress else { return nil }
            var found: (nameStart: Int, valueStart: Int, valueCount: Int)?
            var offset = 0
            while all.count - offset >= 8 {
                let nameCount = Int(base.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
                let valueCount = Int(base.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self))
                let nameStart = offset + 8
                if nameCount == wantedCount, name.withUTF8Bytes({ Self.isServerForm(of: $0, at: base + nameStart) }) {
                    found = (nameStart, nameStart + nameCount, valueCount)
                }
                offset = nameStart + nameCount + valueCount
            }
            return found
        }
    }

    /// Whether the bytes at `written` are `wanted` as the server writes a header's name: letters
    /// in upper case, `_` for `-`.
    @inline(__always)
    private static func isServerForm(of wanted: UnsafeBufferPointer<UInt8>, at written: UnsafeRawPointer) -> Bool {
        for index in 0..<wanted.count {
            let byte = wanted[index]
            let server: UInt8 =
                switch byte {
                case UInt8(ascii: "-"): UInt8(ascii: "_")
                case UInt8(ascii: "a")...UInt8(ascii: "z"): byte & 0xDF
                default: byte
                }
            if written.load(fromByteOffset: index, as: UInt8.self) != server { return false }
        }
        return true
    }
}
