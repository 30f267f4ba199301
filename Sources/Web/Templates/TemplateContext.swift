/// The names and values a template is rendered with, written like a dictionary literal
/// (`NamedValues`: a page has a dozen names at most, looked up at every slot of every page).
public struct TemplateContext: Sendable, ExpressibleByDictionaryLiteral {
    private var entries: NamedValues<TemplateValue>

    /// A context from name–value pairs; a literal names each once.
    public init(dictionaryLiteral elements: (String, TemplateValue)...) {
        entries = NamedValues(capacity: elements.count + 4)
        for (name, value) in elements { entries.appendNew(name, value) }
    }

    /// An empty context with room for `capacity` names, to fill with `add(_:_:)`: a page made on
    /// every request builds its context so, since a literal's list of pairs is made, copied from
    /// and destroyed pair by pair through the runtime's generic tuple code.
    public init(capacity: Int) { entries = NamedValues(capacity: capacity) }

    /// Adds a name the context does not have yet.
    public mutating func add(_ name: consuming String, _ value: consuming TemplateValue) {
        entries.appendNew(name, value)
    }

    /// The value of a name; setting nil removes it, setting a known name replaces its value.
    public subscript(name: String) -> TemplateValue? {
        get { entries[name] }
        set { entries[name] = newValue }
    }

    /// This context with `other`'s names added (replacing values of the same name).
    public func adding(_ other: TemplateContext) -> TemplateContext {
        var merged = self
        for (name, value) in other.entries.all { merged[name] = value }
        return merged
    }

    /// The value at a place `index(of:)` gave.
    func value(at index: Int) -> TemplateValue { entries.value(at: index) }

    /// Where `name` is, if the context has it.
    func index(of name: String) -> Int? { entries.index(of: name) }
}
