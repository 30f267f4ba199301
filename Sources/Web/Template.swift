/// A template parsed once at start-up into literal byte chunks and slots, rendered by
/// appending to one buffer. The syntax is the part of Mustache this product needs:
/// `{{name}}` (escaped), `{{{name}}}` (raw, for trusted text only), `{{#name}}…{{/name}}`,
/// `{{^name}}…{{/name}}`, `{{> partial}}` and `{{! comment}}`.
public struct Template: Sendable {
    indirect enum Node: Sendable {
        case literal([UInt8])
        case escaped(String)
        case raw(String)
        case section(String, [Node], inverted: Bool)
        case partial(String, line: Int)
    }

    let nodes: [Node]

    init(nodes: [Node]) { self.nodes = nodes }

    /// Renders with the given values (looked up first) and shared ones (e.g. asset paths); a
    /// missing name renders as nothing.
    public func render(_ context: TemplateContext, shared: TemplateContext = [:]) -> [UInt8] {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(4096)
        var stack = [shared, context]
        Template.render(nodes, stack: &stack, into: &buffer)
        return buffer
    }

    private static func lookup(_ name: String, in stack: [TemplateContext]) -> TemplateValue? {
        for context in stack.reversed() {
            if let value = context[name] { return value }
        }
        return nil
    }

    private static func render(_ nodes: [Node], stack: inout [TemplateContext], into buffer: inout [UInt8]) {
        for node in nodes {
            switch node {
            case .literal(let bytes):
                buffer.append(contentsOf: bytes)
            case .escaped(let name):
                if case .text(let text)? = lookup(name, in: stack) { HTMLEscaping.append(text, to: &buffer) }
            case .raw(let name):
                if case .text(let text)? = lookup(name, in: stack) { buffer.append(contentsOf: text.utf8) }
            case .section(let name, let inner, let inverted):
                let value = lookup(name, in: stack)
                let shown = value?.isTruthy ?? false
                if inverted {
                    if !shown { render(inner, stack: &stack, into: &buffer) }
                } else if case .list(let items)? = value {
                    for item in items {
                        stack.append(item)
                        render(inner, stack: &stack, into: &buffer)
                        stack.removeLast()
                    }
                } else if shown {
                    render(inner, stack: &stack, into: &buffer)
                }
            case .partial:
                break  // resolved by TemplateLibrary before use
            }
        }
    }
}
