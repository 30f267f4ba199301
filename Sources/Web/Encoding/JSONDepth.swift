/// How deeply a JSON text nests, found in one pass over its bytes before any decoding: a
/// recursive decoder runs out of a serving thread's stack on a few hundred levels, which one
/// small request (or one person's own metadata) could hold.
enum JSONDepth {
    /// The deepest nesting of arrays and objects decoded. Auth0's answers nest 3 or 4 deep.
    static let limit = 64

    /// True when `bytes` open more than `limit` arrays or objects at once (brackets inside
    /// strings do not count).
    static func exceedsLimit(_ bytes: [UInt8]) -> Bool {
        var depth = 0
        var inString = false
        var escaped = false
        for byte in bytes {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                if depth > limit { return true }
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            default: break
            }
        }
        return false
    }
}
