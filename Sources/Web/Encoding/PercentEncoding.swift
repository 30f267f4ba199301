/// Percent-decoding and -encoding on bytes (Foundation's string versions are slow on Linux).
public enum PercentEncoding {
    /// Decodes `%XX` escapes (and `+` as a space when `plusIsSpace`), then checks UTF-8.
    /// Throws `WebError.badRequest` for a broken escape, invalid UTF-8 or a NUL byte.
    public static func decode(_ bytes: some Collection<UInt8>, plusIsSpace: Bool) throws -> String {
        var out = [UInt8]()
        out.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index != bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                let high = bytes.index(after: index)
                guard high != bytes.endIndex else { throw WebError.badRequest(.brokenPercentEscape) }
                let low = bytes.index(after: high)
                guard low != bytes.endIndex, let h = hexValue(bytes[high]), let l = hexValue(bytes[low]) else {
                    throw WebError.badRequest(.brokenPercentEscape)
                }
                out.append(h << 4 | l)
                index = bytes.index(after: low)
                continue
            }
            out.append(plusIsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
            index = bytes.index(after: index)
        }
        return try validatedText(out)
    }

    /// Decodes `%XX` escapes (not `+`), or returns the text unchanged when it is not valid encoding.
    public static func decodeOrSelf(_ text: String) -> String {
        (try? decode(text.utf8, plusIsSpace: false)) ?? text
    }

    /// Text from bytes that must be valid UTF-8 with no NUL.
    public static func validatedText(_ bytes: [UInt8]) throws -> String {
        if bytes.contains(0) { throw WebError.badRequest(.nulByte) }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw WebError.badRequest(.notUTF8)
        }
        return text
    }

    /// Encodes everything but RFC 3986's unreserved characters.
    public static func encode(_ text: String) -> String {
        var out = [UInt8]()
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if isUnreserved(byte) {
                out.append(byte)
            } else {
                out.append(UInt8(ascii: "%"))
                out.append(hexDigits[Int(byte >> 4)])
                out.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `name=value&…` with both sides encoded, as a form body or a query string.
    public static func formEncode(_ pairs: [(String, String)]) -> String {
        pairs.map { encode($0.0) + "=" + encode($0.1) }.joined(separator: "&")
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    /// True for RFC 3986's unreserved characters, which a URL carries as they are.
    public static func isUnreserved(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            true
        default: false
        }
    }

    /// The value of one hexadecimal digit (either case); nil for any other byte.
    public static func hexValue(_ b: UInt8) -> UInt8? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): b - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): b - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): b - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
