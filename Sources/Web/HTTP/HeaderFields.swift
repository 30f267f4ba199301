/// A request's header fields, names in lower case, in the order they came (`NamedValues`: a
/// request carries a dozen at most and a page reads a few by name).
public struct HeaderFields: Sendable, ExpressibleByDictionaryLiteral {
    private var fields: NamedValues<String>

    /// No fields.
    public init() { fields = NamedValues() }

    /// No fields, with room for `capacity` without growing.
    public init(capacity: Int) { fields = NamedValues(capacity: capacity) }

    /// Fields from a literal; names are expected in lower case.
    public init(dictionaryLiteral elements: (String, String)...) {
        fields = NamedValues(capacity: elements.count)
        for (name, value) in elements { fields[name] = value }
    }

    /// Fields from a dictionary; names are expected in lower case.
    public init(_ dictionary: [String: String]) {
        fields = NamedValues(capacity: dictionary.count)
        for (name, value) in dictionary { fields[name] = value }
    }

    /// The value of a lower-case name; setting replaces the one value (nil removes it).
    public subscript(name: String) -> String? {
        get { fields[name] }
        set { fields[name] = newValue }
    }
}
