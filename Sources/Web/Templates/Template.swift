/// A template parsed once at start-up and compiled into a flat program of literal byte chunks
/// and slots, rendered by appending to one buffer. The syntax is the part of Mustache this
/// product needs: `{{name}}` (escaped), `{{{name}}}` (raw, for trusted text only),
/// `{{#name}}…{{/name}}`, `{{^name}}…{{/name}}`, `{{> partial}}` and `{{! comment}}`.
public struct Template: Sendable {
    /// The parsed tree, as TemplateParser and TemplateLibrary build it.
    indirect enum Node: Sendable {
        case literal([UInt8])
        case escaped(String)
        case raw(String)
        case section(String, [Node], inverted: Bool)
        case partial(String, line: Int)
    }

    /// One step of the compiled program. Only integers: walking it retains nothing.
    enum Step: Sendable {
        /// A range of `literalBytes`.
        case literal(Int, Int)
        case escaped(Int)
        case raw(Int)
        /// Shows steps up to `end` (exclusive) when the value is truthy (or not, if inverted).
        case section(Int, inverted: Bool, end: Int)
    }

    /// The tree it was compiled from, kept for `fixing(_:)`.
    private let nodes: [Node]
    let steps: [Step]
    /// Every literal chunk, end to end: rendering appends ranges of this one buffer, so threads
    /// rendering at once do not take turns on the reference counts of many shared arrays.
    let literalBytes: [UInt8]
    /// Every name the template uses, once; steps refer to them by index.
    let names: [String]
    /// Where those names lay in the contexts it was rendered with lately (shared by copies).
    let slotMemo = TemplateSlotMemo()

    init(nodes: [Node]) {
        var steps: [Step] = []
        var literalBytes: [UInt8] = []
        var names: [String] = []
        var nameIndex: [String: Int] = [:]
        func index(of name: String) -> Int {
            if let known = nameIndex[name] { return known }
            names.append(name)
            nameIndex[name] = names.count - 1
            return names.count - 1
        }
        func compile(_ nodes: [Node]) {
            for node in nodes {
                switch node {
                case .literal(let bytes):
                    steps.append(.literal(literalBytes.count, literalBytes.count + bytes.count))
                    literalBytes.append(contentsOf: bytes)
                case .escaped(let name): steps.append(.escaped(index(of: name)))
                case .raw(let name): steps.append(.raw(index(of: name)))
                case .section(let name, let inner, let inverted):
                    let start = steps.count
                    steps.append(.literal(0, 0))  // replaced once the body's length is known
                    compile(inner)
                    steps[start] = .section(index(of: name), inverted: inverted, end: steps.count)
                case .partial:
                    break  // resolved by TemplateLibrary before use
                }
            }
        }
        compile(nodes)
        self.nodes = nodes
        self.steps = steps
        self.literalBytes = literalBytes
        self.names = names
    }

    /// A template of `text` alone (partials left out), for the fuzz target over the parser.
    package init(parsing text: String) throws {
        self.init(nodes: try TemplateParser.parse(text, file: "fuzz"))
    }

    /// The same template with the slots and sections of `constants` decided now: their values
    /// become literal bytes (escaped where the slot escapes), their sections kept or dropped, so
    /// a page pays nothing for what is the same on every page of a process (asset paths, a
    /// page's title in its language). A fixed name is no longer looked up when rendering: a
    /// context that also names it does not change it. Lists are not fixed: their names are
    /// still looked up.
    public func fixing(_ constants: TemplateContext) -> Template {
        func fix(_ nodes: [Node]) -> [Node] {
            nodes.flatMap { node -> [Node] in
                switch node {
                case .escaped(let name):
                    guard case .text(let text)? = constants[name] else { return [node] }
                    var bytes: [UInt8] = []
                    HTMLEscaping.append(text, to: &bytes)
                    return [.literal(bytes)]
                case .raw(let name):
                    guard case .text(let text)? = constants[name] else { return [node] }
                    return [.literal(Array(text.utf8))]
                case .section(let name, let inner, let inverted):
                    guard let value = constants[name] else { return [.section(name, fix(inner), inverted: inverted)] }
                    switch value {
                    case .list, .renderedItems: return [.section(name, fix(inner), inverted: inverted)]
                    case .text, .flag: break
                    }
                    return value.isTruthy != inverted ? fix(inner) : []
                case .literal, .partial:
                    return [node]
                }
            }
        }
        return Template(nodes: Template.mergingLiterals(fix(nodes)))
    }

    /// The body of the first section shown for `name` (not an inverted one), as a template of its
    /// own: what renders a list's items once, at start-up, for `TemplateValue.renderedItems`.
    public func section(named name: String) -> Template? {
        func find(_ nodes: [Node]) -> [Node]? {
            for node in nodes {
                guard case .section(let found, let inner, let inverted) = node else { continue }
                if found == name && !inverted { return inner }
                if let deeper = find(inner) { return deeper }
            }
            return nil
        }
        return find(nodes).map { Template(nodes: $0) }
    }

    /// Every name its slots and sections use, once each.
    public var namesUsed: [String] { names }

    /// `nodes` with neighbouring literals joined into one, at every level.
    static func mergingLiterals(_ nodes: [Node]) -> [Node] {
        var merged: [Node] = []
        for node in nodes {
            switch node {
            case .literal(let bytes):
                if case .literal(let previous)? = merged.last {
                    merged[merged.count - 1] = .literal(previous + bytes)
                } else {
                    merged.append(node)
                }
            case .section(let name, let inner, let inverted):
                merged.append(.section(name, mergingLiterals(inner), inverted: inverted))
            default:
                merged.append(node)
            }
        }
        return merged
    }
}
