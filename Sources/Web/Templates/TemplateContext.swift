/// The names and values a template is rendered with, written like a dictionary literal. A page
/// has a dozen names at most: comparing them in a row costs less than hashing each one, which
/// matters at every slot of every page.
public struct TemplateContext: Sendable, ExpressibleByDictionaryLiteral {
    private var entries: [(name: String, value: TemplateValue)] = []

    /// A context from name–value pairs; a literal names each once.
    public init(dictionaryLiteral elements: (String, TemplateValue)...) {
        entries.reserveCapacity(elements.count + 4)
        for (name, value) in elements {
            // Taken as they come (no look-up per name): a literal's names are distinct.
            assert(index(of: name) == nil, "\(name) named twice")
            entries.append((name, value))
        }
    }

    /// The value of a name; setting nil removes it, setting a known name replaces its value.
    public subscript(name: String) -> TemplateValue? {
        get { index(of: name).map { entries[$0].value } }
        set {
            switch (index(of: name), newValue) {
            case (let index?, let value?): entries[index].value = value
            case (let index?, nil): entries.remove(at: index)
            case (nil, let value?): entries.append((name, value))
            case (nil, nil): break
            }
        }
    }

    /// This context with `other`'s names added (replacing values of the same name).
    public func adding(_ other: TemplateContext) -> TemplateContext {
        var merged = self
        for (name, value) in other.entries { merged[name] = value }
        return merged
    }

    /// The value at a place `index(of:)` gave.
    func value(at index: Int) -> TemplateValue { entries[index].value }

    /// Where `name` is: lengths first (stored, so free), the text only for names of the same
    /// length; most names a template asks for are not in a given context.
    func index(of name: String) -> Int? {
        let length = name.utf8.count
        return entries.firstIndex { $0.name.utf8.count == length && $0.name == name }
    }
}
