import Auth0Web
import Web

// Request bodies, percent-encoding, return paths, JSON, Accept-Language, the env file and the
// compact form of a JWT: what is accepted reads back the same, or stays within its rules.

let formatTargets = [
    FuzzTarget(name: "form-body") { input in
        if let form = try? FormData(urlEncoded: input) {
            let again = try? FormData(
                urlEncoded: Array(PercentEncoding.formEncode(form.pairs.map { ($0.name, $0.value) }).utf8))
            precondition(again == form, "form decoding does not round-trip")
        }
    },
    FuzzTarget(name: "percent-decoding") { input in
        if let text = try? PercentEncoding.decode(input, plusIsSpace: false) {
            let again = try? PercentEncoding.decode(Array(PercentEncoding.encode(text).utf8), plusIsSpace: false)
            precondition(again == text, "percent-decoding does not round-trip")
        }
    },
    FuzzTarget(name: "return-path") { input in
        let path = ReturnPath.sanitize(String(decoding: input, as: UTF8.self))
        // Bytes, not characters: "/" plus a combining mark is one Character but still a path.
        let bytes = Array(path.utf8)
        precondition(
            bytes.first == UInt8(ascii: "/")
                && (bytes.count == 1 || (bytes[1] != UInt8(ascii: "/") && bytes[1] != UInt8(ascii: "\\"))),
            "return path left the site")
    },
    FuzzTarget(name: "json") { input in
        // JSON from outside (token answers, metadata, request bodies): deep nesting is refused
        // before decoding, and what is accepted reads back the same.
        if let value = try? JSONValue.decode(input) {
            precondition(JSONValue.parse(value.serialized()) == value, "JSON does not round-trip")
        }
    },
    FuzzTarget(name: "accept-language") { input in
        let header = String(decoding: input, as: UTF8.self)
        let wanted = LanguageTags.mostWanted(acceptLanguage: header)
        // By bytes: a tag starts after a comma, which may join a mark that follows into one Character.
        if let wanted { precondition(header.utf8.firstRange(of: wanted.utf8) != nil, "a tag the header does not hold") }
        precondition(
            LanguageTags.wantsSimplifiedChinese(acceptLanguage: header)
                == (wanted.map { LanguageTags.isSimplifiedChinese($0) } ?? false),
            "the language chosen is not the most wanted tag's")
    },
    FuzzTarget(name: "env-file") { input in
        // What is read, written back with double quotes and systemd's escapes, reads the same.
        let file = EnvironmentFile(text: String(decoding: input, as: UTF8.self))
        // A carriage return is a line break to systemd: a value holding one cannot be written back.
        guard !file.values.values.contains(where: { $0.unicodeScalars.contains("\r") }) else { return }
        let written = file.values.sorted { $0.key < $1.key }.map { name, value in
            // By scalar: a quote after a prepending mark is one Character with it, and still a quote.
            var escaped = String.UnicodeScalarView()
            for scalar in value.unicodeScalars {
                if "\\\"`$".unicodeScalars.contains(scalar) { escaped.append("\\") }
                escaped.append(scalar)
            }
            return "\(name)=\"\(String(escaped))\""
        }.joined(separator: "\n")
        let again = EnvironmentFile(text: written)
        precondition(again.values == file.values, "written back, \(file.values) reads as \(again.values)")
    },
    FuzzTarget(name: "jwt") { input in
        let text = String(decoding: input, as: UTF8.self)
        if let jwt = JWT(text) {
            _ = jwt.audiences
            let parts = text.split(separator: ".", omittingEmptySubsequences: false)
            precondition(parts.count == 3, "a token of other than three parts")
            precondition(
                jwt.signedPart == Array((parts[0] + "." + parts[1]).utf8), "the signed part is not the token's")
            precondition(jwt.header.object != nil && jwt.claims.object != nil, "header or claims not an object")
        }
    },
]
