/// Parses template text into nodes; partials stay as references for the library to resolve.
enum TemplateParser {
    static func parse(_ text: String, file: String) throws -> [Template.Node] {
        let bytes = Array(text.utf8)
        var index = 0
        var line = 1
        // Each open section: its name, its line, the nodes before it, whether inverted.
        var open: [(name: String, line: Int, outer: [Template.Node], inverted: Bool)] = []
        var nodes: [Template.Node] = []
        var literal: [UInt8] = []

        func flushLiteral() {
            if !literal.isEmpty { nodes.append(.literal(literal)) }
            literal = []
        }

        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "{"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "{")
            else {
                if bytes[index] == UInt8(ascii: "\n") { line += 1 }
                literal.append(bytes[index])
                index += 1
                continue
            }
            let triple = index + 2 < bytes.count && bytes[index + 2] == UInt8(ascii: "{")
            let start = index + (triple ? 3 : 2)
            let closing: [UInt8] = triple ? Array("}}}".utf8) : Array("}}".utf8)
            guard let end = find(closing, in: bytes, from: start) else {
                throw TemplateError(file: file, line: line, message: "a tag opened with {{ is never closed")
            }
            let inside = String(decoding: bytes[start..<end], as: UTF8.self)
            let tagLine = line
            line += inside.utf8.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
            index = end + closing.count
            flushLiteral()

            if triple {
                nodes.append(.raw(try name(inside, file: file, line: tagLine)))
                continue
            }
            let sigil = inside.first
            let rest = String(inside.dropFirst())
            switch sigil {
            case "!":
                continue
            case "#", "^":
                open.append((try name(rest, file: file, line: tagLine), tagLine, nodes, sigil == "^"))
                nodes = []
            case "/":
                let closed = try name(rest, file: file, line: tagLine)
                guard let section = open.popLast() else {
                    throw TemplateError(file: file, line: tagLine, message: "{{/\(closed)}} closes no open section")
                }
                guard section.name == closed else {
                    throw TemplateError(
                        file: file, line: tagLine,
                        message: "{{/\(closed)}} closes {{#\(section.name)}} opened on line \(section.line)")
                }
                let inner = nodes
                nodes = section.outer
                nodes.append(.section(section.name, inner, inverted: section.inverted))
            case ">":
                nodes.append(.partial(try name(rest, file: file, line: tagLine), line: tagLine))
            case "{", "&", "=":
                throw TemplateError(file: file, line: tagLine, message: "unsupported tag {{\(inside)}}")
            default:
                nodes.append(.escaped(try name(inside, file: file, line: tagLine)))
            }
        }
        flushLiteral()
        if let section = open.last {
            throw TemplateError(file: file, line: section.line, message: "{{#\(section.name)}} is never closed")
        }
        return nodes
    }

    private static func name(_ raw: String, file: String, line: Int) throws -> String {
        let trimmed = raw.trimmingSpaces()
        let allowed = trimmed.utf8.allSatisfy { b in
            (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z")) || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z"))
                || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || b == UInt8(ascii: "_")
                || b == UInt8(ascii: "-") || b == UInt8(ascii: ".")
        }
        guard !trimmed.isEmpty, allowed else {
            throw TemplateError(file: file, line: line, message: "\"\(raw)\" is not a valid name")
        }
        return trimmed
    }

    private static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        var i = start
        while i + needle.count <= bytes.count {
            if bytes[i] == needle[0], Array(bytes[i..<i + needle.count]) == needle { return i }
            i += 1
        }
        return nil
    }
}
