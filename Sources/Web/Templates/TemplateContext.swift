/// The names and values a template is rendered with, written like a dictionary literal
/// (`NamedValues`: a page has a dozen names at most; a template finds where its names lie once per
/// layout of the contexts it is rendered with, `TemplateSlotMemo`, and reads them there).
public struct TemplateContext: Sendable, ExpressibleByDictionaryLiteral {
    private var entries: NamedValues<TemplateValue>

    /// An empty context with room for `capacity` names, filled by adding them one by one: what
    /// a page makes on every view (a literal's pairs come in an array of tuples, which the
    /// runtime destroys through its generic tuple code, pair by pair).
    public init(capacity: Int) { entries = NamedValues(capacity: capacity) }

    /// Sets a name not set yet (checked in debug builds), with no look-up for it: how a page
    /// fills the context it made with `init(capacity:)`.
    /// The value is taken, not copied: a page adds a dozen, each a retain and a release saved.
    public mutating func add(_ name: String, _ value: consuming TemplateValue) { entries.appendNew(name, value) }

    /// A context from name–value pairs; a literal names each once.
    public init(dictionaryLiteral elements: (String, TemplateValue)...) {
        entries = NamedValues(capacity: elements.count + 4)
        for (name, value) in elements { entries.appendNew(name, value) }
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

    /// The values in place, for the renderer to read without copying them out.
    var values: NamedValues<TemplateValue> { entries }

    /// Where `name` is, if the context has it.
    func index(of name: String) -> Int? { entries.index(of: name) }
}
