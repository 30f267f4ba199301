/// A value a template slot or section can show.
public enum TemplateValue: Sendable, ExpressibleByStringLiteral, ExpressibleByBooleanLiteral {
    /// Text, escaped when shown with `{{name}}`; a section shows when it is not empty.
    case text(String)
    /// A section shows when true.
    case flag(Bool)
    /// A section repeats once per item, each item's names on top.
    case list([TemplateContext])
    /// A list whose items are already rendered, each from the body of the section it fills
    /// (`Template.section(named:)`, at start-up): shown one after another where the body would
    /// repeat, so a page pays for none of the items' names. Trusted HTML: the product's own
    /// template rendered it, escaping as the body says.
    case renderedItems([[UInt8]])

    /// Text from a literal.
    public init(stringLiteral value: String) { self = .text(value) }
    /// A flag from a literal.
    public init(booleanLiteral value: Bool) { self = .flag(value) }

    var isTruthy: Bool {
        switch self {
        case .text(let text): !text.isEmpty
        case .flag(let flag): flag
        case .list(let items): !items.isEmpty
        case .renderedItems(let items): !items.isEmpty
        }
    }
}
