/// The names and values a template is rendered with, written like a dictionary literal. A page
/// has a dozen names at most: comparing them in a row costs less than hashing each one, which
/// matters at every slot of every page.
public struct TemplateContext: Sendable, ExpressibleByDictionaryLiteral {
    private var names: [String] = []
    private var values: [TemplateValue] = []

    /// A context from name–value pairs.
    public init(dictionaryLiteral elements: (String, TemplateValue)...) {
        names.reserveCapacity(elements.count + 4)
        values.reserveCapacity(elements.count + 4)
        for (name, value) in elements { self[name] = value }
    }

    /// The value of a name; setting nil removes it, setting a known name replaces its value.
    public subscript(name: String) -> TemplateValue? {
        get {
            guard let index = index(of: name) else { return nil }
            return values[index]
        }
        set {
            let index = index(of: name)
            switch (index, newValue) {
            case (let index?, let value?): values[index] = value
            case (let index?, nil):
                names.remove(at: index)
                values.remove(at: index)
            case (nil, let value?):
                names.append(name)
                values.append(value)
            case (nil, nil): break
            }
        }
    }

    /// Where `name` is: lengths first (stored, so free), the text only for names of the same
    /// length; most names a template asks for are not in a given context.
    private func index(of name: String) -> Int? {
        let length = name.utf8.count
        return names.firstIndex { $0.utf8.count == length && $0 == name }
    }

    /// This context with `other`'s names added (replacing values of the same name).
    public func adding(_ other: TemplateContext) -> TemplateContext {
        var merged = self
        for (index, name) in other.names.enumerated() { merged[name] = other.values[index] }
        return merged
    }
}
