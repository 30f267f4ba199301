/// A value a template slot or section can show.
public enum TemplateValue: Sendable, ExpressibleByStringLiteral, ExpressibleByBooleanLiteral {
    /// Text, escaped when shown with `{{name}}`; a section shows when it is not empty.
    case text(String)
    /// A section shows when true.
    case flag(Bool)
    /// A section repeats once per item, each item's names on top.
    case list([TemplateContext])

    /// Text from a literal.
    public init(stringLiteral value: String) { self = .text(value) }
    /// A flag from a literal.
    public init(booleanLiteral value: Bool) { self = .flag(value) }

    var isTruthy: Bool {
        switch self {
        case .text(let text): !text.isEmpty
        case .flag(let flag): flag
        case .list(let items): !items.isEmpty
        }
    }
}
