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
        bytes = [UInt8](room: capacity) { room in
            var writer = Writer(room: UnsafeMutableRawBufferPointer(room))
            fill(&writer)
            return writer.used
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

        /// Adds a field from its name (as the server wrote it after `HTTP_`) and its value side by
        /// side, as a FastCGI pair holds them: one copy. A field past the room
        /// `capacity(forParameterBytes:)` gave cannot come; it would be left out.
        package mutating func append(nameAndValue field: UnsafeRawBufferPointer, nameCount: Int) {
            guard room.count - used >= 8 + field.count, let base = room.baseAddress else { return }
            base.storeBytes(of: UInt32(truncatingIfNeeded: nameCount), toByteOffset: used, as: UInt32.self)
            base.storeBytes(
                of: UInt32(truncatingIfNeeded: field.count - nameCount), toByteOffset: used + 4, as: UInt32.self)
            if let source = field.baseAddress {
                // A short field is copied in words, not by a call to memcpy.
                GrowingBytes.copy(
                    from: source.assumingMemoryBound(to: UInt8.self), count: field.count,
                    to: (base + used + 8).assumingMemoryBound(to: UInt8.self))
            }
            used += 8 + field.count
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

    /// Where the last field named `name` is in `bytes`: a field's name is looked at only when it
    /// is as long.
    private func lastField(named name: String) -> (nameStart: Int, valueStart: Int, valueCount: Int)? {
        name.withUTF8Bytes { wanted -> (nameStart: Int, valueStart: Int, valueCount: Int)? in
            bytes.withUnsafeBytes { all -> (nameStart: Int, valueStart: Int, valueCount: Int)? in
                guard let base = all.baseAddress, !wanted.isEmpty else { return nil }
                var found: (nameStart: Int, valueStart: Int, valueCount: Int)?
                var offset = 0
                while all.count - offset >= 8 {
                    let nameCount = Int(base.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
                    let valueCount = Int(base.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self))
                    let nameStart = offset + 8
                    if nameCount == wanted.count, Self.isServerForm(of: wanted, at: base + nameStart) {
                        found = (nameStart, nameStart + nameCount, valueCount)
                    }
                    offset = nameStart + nameCount + valueCount
                }
                return found
            }
        }
    }

    /// Whether the bytes at `written` are `wanted` as the server writes a header's name.
    @inline(__always)
    private static func isServerForm(of wanted: UnsafeBufferPointer<UInt8>, at written: UnsafeRawPointer) -> Bool {
        for index in 0..<wanted.count
        where written.load(fromByteOffset: index, as: UInt8.self) != serverForm(wanted[index]) {
            return false
        }
        return true
    }

    /// A byte of a header's name as the server writes it: letters in upper case, `_` for `-`.
    @inline(__always)
    private static func serverForm(_ byte: UInt8) -> UInt8 {
        switch byte {
        case UInt8(ascii: "-"): UInt8(ascii: "_")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): byte & 0xDF
        default: byte
        }
    }
}
